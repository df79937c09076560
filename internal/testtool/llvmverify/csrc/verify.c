/* verify: parse and verify many LLVM IR modules in one process, as
 * llvm-as-22 does for one file (the same LLParser and Verifier, through
 * LLVM's C API), so tests need not start a process per module.
 *
 * Input, repeated until end of file: a line "<name bytes> <text bytes>"
 * followed by the name and the IR text. Output per module: "OK\n", or
 * "FAIL <n>\n" followed by n bytes of message (name:line:col: error: ...,
 * or the verifier's report). */
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void report(const char *head, const char *msg) {
  size_t h = strlen(head), m = strlen(msg);
  printf("FAIL %zu\n", h + m);
  fwrite(head, 1, h, stdout);
  fwrite(msg, 1, m, stdout);
}

int main(void) {
  size_t nname, ntext;
  while (scanf("%zu %zu", &nname, &ntext) == 2) {
    if (getchar() != '\n' || nname > 4096)
      return 2;
    char name[4097];
    char *text = malloc(ntext + 1);
    if (!text || fread(name, 1, nname, stdin) != nname ||
        fread(text, 1, ntext, stdin) != ntext)
      return 2;
    name[nname] = 0;
    text[ntext] = 0;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf =
        LLVMCreateMemoryBufferWithMemoryRangeCopy(text, ntext, name);
    free(text);
    LLVMModuleRef mod;
    char *msg = NULL;
    /* LLVMParseIRInContext takes ownership of buf. */
    if (LLVMParseIRInContext(ctx, buf, &mod, &msg)) {
      report("", msg ? msg : "parse error");
    } else {
      if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg))
        report("assembly parsed, but does not verify as correct!\n", msg);
      else
        printf("OK\n");
      LLVMDisposeModule(mod);
    }
    LLVMDisposeMessage(msg);
    LLVMContextDispose(ctx);
    fflush(stdout);
  }
  return 0;
}
