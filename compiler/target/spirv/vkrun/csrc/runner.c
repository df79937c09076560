// vkrun: runs one compute shader on a Vulkan device and dumps its buffers.
//
//   runner --info            prints "device=<name> subgroup=<size>"
//   runner JOB OUT           runs the job file, writes the buffers to OUT
//
// Job file (little-endian uint32 words): groups x y z; buffer count; per
// buffer: set, binding, kind (0 storage, 1 uniform), byte size, then the
// bytes padded to a word; SPIR-V word count and words; entry point name
// length and bytes (padded). OUT holds, per buffer, its byte size and
// bytes (padded). Buffers live in host-visible coherent memory. The device
// is the first whose name contains $VKRUN_DEVICE (default "llvmpipe"),
// else the first device.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#define CHECK(x)                                                           \
	do {                                                                   \
		VkResult r_ = (x);                                                 \
		if (r_ != VK_SUCCESS) {                                            \
			fprintf(stderr, "vkrun: %s failed: %d\n", #x, (int)r_);      \
			exit(1);                                                       \
		}                                                                  \
	} while (0)

static void die(const char *msg) {
	fprintf(stderr, "vkrun: %s\n", msg);
	exit(1);
}

typedef struct {
	uint32_t set, binding, kind, size;
	uint8_t *data;
	VkBuffer buf;
	VkDeviceMemory mem;
	void *map;
} Buf;

static uint8_t *file;
static size_t fsize, fpos;

static uint32_t rd(void) {
	if (fpos + 4 > fsize) die("job file truncated");
	uint32_t v;
	memcpy(&v, file + fpos, 4);
	fpos += 4;
	return v;
}

static uint8_t *rdbytes(uint32_t n) {
	size_t padded = (n + 3u) & ~3u;
	if (fpos + padded > fsize) die("job file truncated");
	uint8_t *p = file + fpos;
	fpos += padded;
	return p;
}

static VkInstance instance;
static VkPhysicalDevice phys;
static VkPhysicalDeviceProperties props;

static void pick_device(void) {
	VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
	app.pApplicationName = "vkrun";
	app.apiVersion = VK_API_VERSION_1_1;
	VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
	ici.pApplicationInfo = &app;
	CHECK(vkCreateInstance(&ici, NULL, &instance));
	uint32_t n = 0;
	CHECK(vkEnumeratePhysicalDevices(instance, &n, NULL));
	if (n == 0) die("no Vulkan device");
	VkPhysicalDevice *devs = calloc(n, sizeof *devs);
	CHECK(vkEnumeratePhysicalDevices(instance, &n, devs));
	const char *want = getenv("VKRUN_DEVICE");
	if (!want || !*want) want = "llvmpipe";
	phys = devs[0];
	for (uint32_t i = 0; i < n; i++) {
		VkPhysicalDeviceProperties p;
		vkGetPhysicalDeviceProperties(devs[i], &p);
		if (strstr(p.deviceName, want)) {
			phys = devs[i];
			break;
		}
	}
	vkGetPhysicalDeviceProperties(phys, &props);
	free(devs);
}

static uint32_t subgroup_size(void) {
	VkPhysicalDeviceSubgroupProperties sg = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
	VkPhysicalDeviceProperties2 p2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
	p2.pNext = &sg;
	vkGetPhysicalDeviceProperties2(phys, &p2);
	return sg.subgroupSize;
}

int main(int argc, char **argv) {
	if (argc == 2 && strcmp(argv[1], "--info") == 0) {
		pick_device();
		printf("device=%s subgroup=%u api=%u.%u\n", props.deviceName, subgroup_size(),
		       VK_VERSION_MAJOR(props.apiVersion), VK_VERSION_MINOR(props.apiVersion));
		return 0;
	}
	if (argc != 3) die("usage: runner --info | runner JOB OUT");
	FILE *f = fopen(argv[1], "rb");
	if (!f) die("cannot open job file");
	fseek(f, 0, SEEK_END);
	fsize = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	file = malloc(fsize + 4);
	if (fread(file, 1, fsize, f) != fsize) die("cannot read job file");
	fclose(f);

	uint32_t groups[3] = {rd(), rd(), rd()};
	uint32_t nbuf = rd();
	Buf *bufs = calloc(nbuf ? nbuf : 1, sizeof *bufs);
	uint32_t maxset = 0;
	for (uint32_t i = 0; i < nbuf; i++) {
		bufs[i].set = rd();
		bufs[i].binding = rd();
		bufs[i].kind = rd();
		bufs[i].size = rd();
		bufs[i].data = rdbytes(bufs[i].size);
		if (bufs[i].set > maxset) maxset = bufs[i].set;
	}
	uint32_t nwords = rd();
	uint32_t *code = (uint32_t *)rdbytes(nwords * 4);
	uint32_t nlen = rd();
	char *entry = calloc(nlen + 1, 1);
	memcpy(entry, rdbytes(nlen), nlen);

	pick_device();
	uint32_t nq = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(phys, &nq, NULL);
	VkQueueFamilyProperties *qf = calloc(nq, sizeof *qf);
	vkGetPhysicalDeviceQueueFamilyProperties(phys, &nq, qf);
	uint32_t family = UINT32_MAX;
	for (uint32_t i = 0; i < nq; i++)
		if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
			family = i;
			break;
		}
	if (family == UINT32_MAX) die("no compute queue");
	float prio = 1.0f;
	VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
	qci.queueFamilyIndex = family;
	qci.queueCount = 1;
	qci.pQueuePriorities = &prio;
	VkPhysicalDeviceFeatures feats = {0};
	VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
	dci.queueCreateInfoCount = 1;
	dci.pQueueCreateInfos = &qci;
	dci.pEnabledFeatures = &feats;
	VkDevice dev;
	CHECK(vkCreateDevice(phys, &dci, NULL, &dev));
	VkQueue queue;
	vkGetDeviceQueue(dev, family, 0, &queue);

	VkPhysicalDeviceMemoryProperties mp;
	vkGetPhysicalDeviceMemoryProperties(phys, &mp);
	uint32_t nstorage = 0, nuniform = 0;
	for (uint32_t i = 0; i < nbuf; i++) {
		Buf *b = &bufs[i];
		VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
		bci.size = b->size ? b->size : 4;
		bci.usage = b->kind ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
		bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
		CHECK(vkCreateBuffer(dev, &bci, NULL, &b->buf));
		VkMemoryRequirements req;
		vkGetBufferMemoryRequirements(dev, b->buf, &req);
		uint32_t want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, type = UINT32_MAX;
		for (uint32_t t = 0; t < mp.memoryTypeCount; t++)
			if ((req.memoryTypeBits & (1u << t)) && (mp.memoryTypes[t].propertyFlags & want) == want) {
				type = t;
				break;
			}
		if (type == UINT32_MAX) die("no host-visible memory");
		VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
		mai.allocationSize = req.size;
		mai.memoryTypeIndex = type;
		CHECK(vkAllocateMemory(dev, &mai, NULL, &b->mem));
		CHECK(vkBindBufferMemory(dev, b->buf, b->mem, 0));
		CHECK(vkMapMemory(dev, b->mem, 0, VK_WHOLE_SIZE, 0, &b->map));
		memset(b->map, 0, bci.size);
		memcpy(b->map, b->data, b->size);
		if (b->kind) nuniform++;
		else nstorage++;
	}

	uint32_t nsets = nbuf ? maxset + 1 : 0;
	VkDescriptorSetLayout *layouts = calloc(nsets ? nsets : 1, sizeof *layouts);
	for (uint32_t s = 0; s < nsets; s++) {
		VkDescriptorSetLayoutBinding *lb = calloc(nbuf, sizeof *lb);
		uint32_t n = 0;
		for (uint32_t i = 0; i < nbuf; i++) {
			if (bufs[i].set != s) continue;
			lb[n].binding = bufs[i].binding;
			lb[n].descriptorType = bufs[i].kind ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
			lb[n].descriptorCount = 1;
			lb[n].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
			n++;
		}
		VkDescriptorSetLayoutCreateInfo lci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
		lci.bindingCount = n;
		lci.pBindings = lb;
		CHECK(vkCreateDescriptorSetLayout(dev, &lci, NULL, &layouts[s]));
		free(lb);
	}
	VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = nsets;
	plci.pSetLayouts = layouts;
	VkPipelineLayout playout;
	CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &playout));

	VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	smci.codeSize = nwords * 4;
	smci.pCode = code;
	VkShaderModule sm;
	CHECK(vkCreateShaderModule(dev, &smci, NULL, &sm));
	VkComputePipelineCreateInfo cpci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
	cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
	cpci.stage.module = sm;
	cpci.stage.pName = entry;
	cpci.layout = playout;
	VkPipeline pipe;
	CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipe));

	VkDescriptorSet *sets = calloc(nsets ? nsets : 1, sizeof *sets);
	if (nsets) {
		VkDescriptorPoolSize sizes[2];
		uint32_t ns = 0;
		if (nstorage) sizes[ns++] = (VkDescriptorPoolSize){VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nstorage};
		if (nuniform) sizes[ns++] = (VkDescriptorPoolSize){VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, nuniform};
		VkDescriptorPoolCreateInfo dpci = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
		dpci.maxSets = nsets;
		dpci.poolSizeCount = ns;
		dpci.pPoolSizes = sizes;
		VkDescriptorPool pool;
		CHECK(vkCreateDescriptorPool(dev, &dpci, NULL, &pool));
		VkDescriptorSetAllocateInfo dsai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
		dsai.descriptorPool = pool;
		dsai.descriptorSetCount = nsets;
		dsai.pSetLayouts = layouts;
		CHECK(vkAllocateDescriptorSets(dev, &dsai, sets));
		for (uint32_t i = 0; i < nbuf; i++) {
			VkDescriptorBufferInfo bi = {bufs[i].buf, 0, VK_WHOLE_SIZE};
			VkWriteDescriptorSet w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
			w.dstSet = sets[bufs[i].set];
			w.dstBinding = bufs[i].binding;
			w.descriptorCount = 1;
			w.descriptorType = bufs[i].kind ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
			w.pBufferInfo = &bi;
			vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);
		}
	}

	VkCommandPoolCreateInfo cpi = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
	cpi.queueFamilyIndex = family;
	VkCommandPool cpool;
	CHECK(vkCreateCommandPool(dev, &cpi, NULL, &cpool));
	VkCommandBufferAllocateInfo cbai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
	cbai.commandPool = cpool;
	cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
	cbai.commandBufferCount = 1;
	VkCommandBuffer cb;
	CHECK(vkAllocateCommandBuffers(dev, &cbai, &cb));
	VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
	CHECK(vkBeginCommandBuffer(cb, &bi));
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
	if (nsets) vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, playout, 0, nsets, sets, 0, NULL);
	vkCmdDispatch(cb, groups[0], groups[1], groups[2]);
	VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
	mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
	mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
	CHECK(vkEndCommandBuffer(cb));
	VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
	si.commandBufferCount = 1;
	si.pCommandBuffers = &cb;
	CHECK(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
	CHECK(vkQueueWaitIdle(queue));

	FILE *o = fopen(argv[2], "wb");
	if (!o) die("cannot write output");
	for (uint32_t i = 0; i < nbuf; i++) {
		uint32_t sz = bufs[i].size;
		fwrite(&sz, 4, 1, o);
		fwrite(bufs[i].map, 1, sz, o);
		uint32_t zero = 0;
		fwrite(&zero, 1, ((sz + 3u) & ~3u) - sz, o);
	}
	fclose(o);
	return 0;
}
