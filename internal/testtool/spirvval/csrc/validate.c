/* validate: validate many SPIR-V binaries in one process, as spirv-val
 * does for one file (SPIRV-Tools' validator with its default options,
 * through the library's C API), so tests need not start a process per
 * module.
 *
 * Input, repeated until end of file: a line "<target env> <words>"
 * (e.g. "vulkan1.1 123") followed by the words as little-endian bytes.
 * Output per module: "OK\n", or "FAIL <n>\n" followed by n bytes of
 * message ("error: line <i>: <text>", as spirv-val prints it). */
#include <spirv-tools/libspirv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  char envname[64];
  size_t nwords;
  while (scanf("%63s %zu", envname, &nwords) == 2) {
    if (getchar() != '\n')
      return 2;
    uint32_t *words = malloc(nwords * 4 + 4);
    if (!words || fread(words, 4, nwords, stdin) != nwords)
      return 2;
    spv_target_env env;
    char msg[8192];
    if (!spvParseTargetEnv(envname, &env)) {
      snprintf(msg, sizeof msg, "error: unknown target environment %s", envname);
      printf("FAIL %zu\n%s", strlen(msg), msg);
      free(words);
      fflush(stdout);
      continue;
    }
    spv_context ctx = spvContextCreate(env);
    spv_validator_options opts = spvValidatorOptionsCreate();
    spv_const_binary_t bin = {words, nwords};
    spv_diagnostic diag = NULL;
    spv_result_t r = spvValidateWithOptions(ctx, opts, &bin, &diag);
    if (r == SPV_SUCCESS) {
      printf("OK\n");
    } else {
      if (diag && diag->error)
        snprintf(msg, sizeof msg, "error: line %zu: %s", diag->position.index, diag->error);
      else
        snprintf(msg, sizeof msg, "error: validation failed (%d)", (int)r);
      printf("FAIL %zu\n%s", strlen(msg), msg);
    }
    spvDiagnosticDestroy(diag);
    spvValidatorOptionsDestroy(opts);
    spvContextDestroy(ctx);
    free(words);
    fflush(stdout);
  }
  return 0;
}
