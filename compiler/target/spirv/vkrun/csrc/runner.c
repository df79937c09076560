// vkrun: runs one compute shader, or draws one full-viewport triangle with
// a vertex and a fragment shader, on a Vulkan device and dumps its buffers
// (and render targets).
//
//   runner --info            prints "device=<name> subgroup=<size>"
//   runner JOB OUT           runs the job file, writes the buffers to OUT
//
// Job file (little-endian uint32 words): mode (0 dispatch, 1 draw); for a
// dispatch, groups x y z; for a draw, width, height, target count and
// per target its kind (0 float, 1 signed, 2 unsigned integer); buffer
// count; per buffer: set, binding, array element (descriptors of one
// binding form an array of max element + 1), kind (0 storage, 1 uniform,
// 2 sampled image, 3 sampler, 4 storage image, 5 multisampled sampled
// image), byte size, then the bytes padded to a word (an image:
// words VkFormat, bytes per texel, width, height, layers, levels,
// VkImageViewType, then the texels of level 0, 1, ... each with all its
// layers (a 3D view: layers is the depth; a storage image has one level
// and is read back into its bytes after the run, in GENERAL layout while
// the shader runs; a multisampled image has the sample count in place of
// levels and its data sample by sample, each with all its layers: it is
// written by a compute shader, msupload below, since a buffer copy cannot
// fill a multisampled image); a sampler: words mag filter, min filter, mipmap mode, address
// u, v, w, compare enable, compare op, border colour, and the floats min
// lod, max lod, lod bias); SPIR-V word count and words; entry
// point name length and bytes (padded); for a draw, the vertex shader's
// SPIR-V and entry point the same way (the first module is the fragment
// shader). OUT holds, per buffer, its byte size and bytes (padded), then
// for a draw each R32G32B32A32 SFLOAT/SINT/UINT target (cleared to zero,
// Location i) as width*height*16 bytes, row-major. Buffers live in host-visible
// coherent memory. The device is the first whose name contains
// $VKRUN_DEVICE (default "llvmpipe"), else the first device; every feature
// it supports is enabled.
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
	uint32_t set, binding, elem, kind, size;
	uint8_t *data;
	VkBuffer buf;
	VkDeviceMemory mem;
	void *map;
	// kind 2: the image, its memory and view; kind 3: the sampler.
	VkImage image;
	VkDeviceMemory imem;
	VkImageView view;
	VkSampler sampler;
	// kind 5: the storage view of the same image (an unsigned integer
	// format of the texel's size) and the upload pipeline that writes it.
	VkImageView sview;
	VkPipeline upipe;
	VkPipelineLayout ulayout;
	VkDescriptorSet uset;
} Buf;

// msupload is the SPIR-V of this GLSL compute shader (glslangValidator -V
// --target-env vulkan1.0 -x), which writes a multisampled image (kind 5)
// from its job-file bytes through a storage view (needs the device's
// shaderStorageImageMultisample and shaderStorageImageWriteWithoutFormat):
//
//	#version 450
//	// Writes the texels of a multisampled image from its job-file blob: seven
//	// header words (format, texel bytes, width, height, layers, samples, view
//	// type), then sample 0 of every layer, sample 1, ..., each layer rows of
//	// texels from the top-left, texel bytes / 4 words a texel.
//	layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;
//	layout(set = 0, binding = 0) writeonly uniform uimage2DMSArray img;
//	layout(set = 0, binding = 1) readonly buffer Blob { uint w[]; };
//	void main() {
//		uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y, l = gl_GlobalInvocationID.z;
//		uint comps = w[1] / 4u, width = w[2], height = w[3], layers = w[4], samples = w[5];
//		for (uint s = 0u; s < samples; s++) {
//			uint base = 7u + (((s * layers + l) * height + y) * width + x) * comps;
//			uvec4 v = uvec4(0u);
//			for (uint c = 0u; c < comps; c++)
//				v[c] = w[base + c];
//			imageStore(img, ivec3(x, y, l), int(s), v);
//		}
//	}
static const uint32_t msupload[] = {
	0x07230203,0x00010000,0x0008000b,0x00000079,0x00000000,0x00020011,0x00000001,0x00020011,
	0x0000001b,0x00020011,0x00000030,0x00020011,0x00000038,0x0006000b,0x00000001,0x4c534c47,
	0x6474732e,0x3035342e,0x00000000,0x0003000e,0x00000000,0x00000001,0x0006000f,0x00000005,
	0x00000004,0x6e69616d,0x00000000,0x0000000b,0x00060010,0x00000004,0x00000011,0x00000001,
	0x00000001,0x00000001,0x00030003,0x00000002,0x000001c2,0x00040005,0x00000004,0x6e69616d,
	0x00000000,0x00030005,0x00000008,0x00000078,0x00080005,0x0000000b,0x475f6c67,0x61626f6c,
	0x766e496c,0x7461636f,0x496e6f69,0x00000044,0x00030005,0x00000010,0x00000079,0x00030005,
	0x00000014,0x0000006c,0x00040005,0x00000018,0x706d6f63,0x00000073,0x00040005,0x0000001a,
	0x626f6c42,0x00000000,0x00040006,0x0000001a,0x00000000,0x00000077,0x00030005,0x0000001c,
	0x00000000,0x00040005,0x00000025,0x74646977,0x00000068,0x00040005,0x00000029,0x67696568,
	0x00007468,0x00040005,0x0000002d,0x6579616c,0x00007372,0x00040005,0x00000031,0x706d6173,
	0x0073656c,0x00030005,0x00000035,0x00000073,0x00040005,0x0000003f,0x65736162,0x00000000,
	0x00030005,0x00000053,0x00000076,0x00030005,0x00000055,0x00000063,0x00030005,0x00000069,
	0x00676d69,0x00040047,0x0000000b,0x0000000b,0x0000001c,0x00040047,0x00000019,0x00000006,
	0x00000004,0x00040048,0x0000001a,0x00000000,0x00000018,0x00050048,0x0000001a,0x00000000,
	0x00000023,0x00000000,0x00030047,0x0000001a,0x00000003,0x00040047,0x0000001c,0x00000022,
	0x00000000,0x00040047,0x0000001c,0x00000021,0x00000001,0x00040047,0x00000069,0x00000022,
	0x00000000,0x00040047,0x00000069,0x00000021,0x00000000,0x00030047,0x00000069,0x00000019,
	0x00040047,0x00000078,0x0000000b,0x00000019,0x00020013,0x00000002,0x00030021,0x00000003,
	0x00000002,0x00040015,0x00000006,0x00000020,0x00000000,0x00040020,0x00000007,0x00000007,
	0x00000006,0x00040017,0x00000009,0x00000006,0x00000003,0x00040020,0x0000000a,0x00000001,
	0x00000009,0x0004003b,0x0000000a,0x0000000b,0x00000001,0x0004002b,0x00000006,0x0000000c,
	0x00000000,0x00040020,0x0000000d,0x00000001,0x00000006,0x0004002b,0x00000006,0x00000011,
	0x00000001,0x0004002b,0x00000006,0x00000015,0x00000002,0x0003001d,0x00000019,0x00000006,
	0x0003001e,0x0000001a,0x00000019,0x00040020,0x0000001b,0x00000002,0x0000001a,0x0004003b,
	0x0000001b,0x0000001c,0x00000002,0x00040015,0x0000001d,0x00000020,0x00000001,0x0004002b,
	0x0000001d,0x0000001e,0x00000000,0x0004002b,0x0000001d,0x0000001f,0x00000001,0x00040020,
	0x00000020,0x00000002,0x00000006,0x0004002b,0x00000006,0x00000023,0x00000004,0x0004002b,
	0x0000001d,0x00000026,0x00000002,0x0004002b,0x0000001d,0x0000002a,0x00000003,0x0004002b,
	0x0000001d,0x0000002e,0x00000004,0x0004002b,0x0000001d,0x00000032,0x00000005,0x00020014,
	0x0000003d,0x0004002b,0x00000006,0x00000040,0x00000007,0x00040017,0x00000051,0x00000006,
	0x00000004,0x00040020,0x00000052,0x00000007,0x00000051,0x0007002c,0x00000051,0x00000054,
	0x0000000c,0x0000000c,0x0000000c,0x0000000c,0x00090019,0x00000067,0x00000006,0x00000001,
	0x00000000,0x00000001,0x00000001,0x00000002,0x00000000,0x00040020,0x00000068,0x00000000,
	0x00000067,0x0004003b,0x00000068,0x00000069,0x00000000,0x00040017,0x00000071,0x0000001d,
	0x00000003,0x0006002c,0x00000009,0x00000078,0x00000011,0x00000011,0x00000011,0x00050036,
	0x00000002,0x00000004,0x00000000,0x00000003,0x000200f8,0x00000005,0x0004003b,0x00000007,
	0x00000008,0x00000007,0x0004003b,0x00000007,0x00000010,0x00000007,0x0004003b,0x00000007,
	0x00000014,0x00000007,0x0004003b,0x00000007,0x00000018,0x00000007,0x0004003b,0x00000007,
	0x00000025,0x00000007,0x0004003b,0x00000007,0x00000029,0x00000007,0x0004003b,0x00000007,
	0x0000002d,0x00000007,0x0004003b,0x00000007,0x00000031,0x00000007,0x0004003b,0x00000007,
	0x00000035,0x00000007,0x0004003b,0x00000007,0x0000003f,0x00000007,0x0004003b,0x00000052,
	0x00000053,0x00000007,0x0004003b,0x00000007,0x00000055,0x00000007,0x00050041,0x0000000d,
	0x0000000e,0x0000000b,0x0000000c,0x0004003d,0x00000006,0x0000000f,0x0000000e,0x0003003e,
	0x00000008,0x0000000f,0x00050041,0x0000000d,0x00000012,0x0000000b,0x00000011,0x0004003d,
	0x00000006,0x00000013,0x00000012,0x0003003e,0x00000010,0x00000013,0x00050041,0x0000000d,
	0x00000016,0x0000000b,0x00000015,0x0004003d,0x00000006,0x00000017,0x00000016,0x0003003e,
	0x00000014,0x00000017,0x00060041,0x00000020,0x00000021,0x0000001c,0x0000001e,0x0000001f,
	0x0004003d,0x00000006,0x00000022,0x00000021,0x00050086,0x00000006,0x00000024,0x00000022,
	0x00000023,0x0003003e,0x00000018,0x00000024,0x00060041,0x00000020,0x00000027,0x0000001c,
	0x0000001e,0x00000026,0x0004003d,0x00000006,0x00000028,0x00000027,0x0003003e,0x00000025,
	0x00000028,0x00060041,0x00000020,0x0000002b,0x0000001c,0x0000001e,0x0000002a,0x0004003d,
	0x00000006,0x0000002c,0x0000002b,0x0003003e,0x00000029,0x0000002c,0x00060041,0x00000020,
	0x0000002f,0x0000001c,0x0000001e,0x0000002e,0x0004003d,0x00000006,0x00000030,0x0000002f,
	0x0003003e,0x0000002d,0x00000030,0x00060041,0x00000020,0x00000033,0x0000001c,0x0000001e,
	0x00000032,0x0004003d,0x00000006,0x00000034,0x00000033,0x0003003e,0x00000031,0x00000034,
	0x0003003e,0x00000035,0x0000000c,0x000200f9,0x00000036,0x000200f8,0x00000036,0x000400f6,
	0x00000038,0x00000039,0x00000000,0x000200f9,0x0000003a,0x000200f8,0x0000003a,0x0004003d,
	0x00000006,0x0000003b,0x00000035,0x0004003d,0x00000006,0x0000003c,0x00000031,0x000500b0,
	0x0000003d,0x0000003e,0x0000003b,0x0000003c,0x000400fa,0x0000003e,0x00000037,0x00000038,
	0x000200f8,0x00000037,0x0004003d,0x00000006,0x00000041,0x00000035,0x0004003d,0x00000006,
	0x00000042,0x0000002d,0x00050084,0x00000006,0x00000043,0x00000041,0x00000042,0x0004003d,
	0x00000006,0x00000044,0x00000014,0x00050080,0x00000006,0x00000045,0x00000043,0x00000044,
	0x0004003d,0x00000006,0x00000046,0x00000029,0x00050084,0x00000006,0x00000047,0x00000045,
	0x00000046,0x0004003d,0x00000006,0x00000048,0x00000010,0x00050080,0x00000006,0x00000049,
	0x00000047,0x00000048,0x0004003d,0x00000006,0x0000004a,0x00000025,0x00050084,0x00000006,
	0x0000004b,0x00000049,0x0000004a,0x0004003d,0x00000006,0x0000004c,0x00000008,0x00050080,
	0x00000006,0x0000004d,0x0000004b,0x0000004c,0x0004003d,0x00000006,0x0000004e,0x00000018,
	0x00050084,0x00000006,0x0000004f,0x0000004d,0x0000004e,0x00050080,0x00000006,0x00000050,
	0x00000040,0x0000004f,0x0003003e,0x0000003f,0x00000050,0x0003003e,0x00000053,0x00000054,
	0x0003003e,0x00000055,0x0000000c,0x000200f9,0x00000056,0x000200f8,0x00000056,0x000400f6,
	0x00000058,0x00000059,0x00000000,0x000200f9,0x0000005a,0x000200f8,0x0000005a,0x0004003d,
	0x00000006,0x0000005b,0x00000055,0x0004003d,0x00000006,0x0000005c,0x00000018,0x000500b0,
	0x0000003d,0x0000005d,0x0000005b,0x0000005c,0x000400fa,0x0000005d,0x00000057,0x00000058,
	0x000200f8,0x00000057,0x0004003d,0x00000006,0x0000005e,0x00000055,0x0004003d,0x00000006,
	0x0000005f,0x0000003f,0x0004003d,0x00000006,0x00000060,0x00000055,0x00050080,0x00000006,
	0x00000061,0x0000005f,0x00000060,0x00060041,0x00000020,0x00000062,0x0000001c,0x0000001e,
	0x00000061,0x0004003d,0x00000006,0x00000063,0x00000062,0x00050041,0x00000007,0x00000064,
	0x00000053,0x0000005e,0x0003003e,0x00000064,0x00000063,0x000200f9,0x00000059,0x000200f8,
	0x00000059,0x0004003d,0x00000006,0x00000065,0x00000055,0x00050080,0x00000006,0x00000066,
	0x00000065,0x0000001f,0x0003003e,0x00000055,0x00000066,0x000200f9,0x00000056,0x000200f8,
	0x00000058,0x0004003d,0x00000067,0x0000006a,0x00000069,0x0004003d,0x00000006,0x0000006b,
	0x00000008,0x0004007c,0x0000001d,0x0000006c,0x0000006b,0x0004003d,0x00000006,0x0000006d,
	0x00000010,0x0004007c,0x0000001d,0x0000006e,0x0000006d,0x0004003d,0x00000006,0x0000006f,
	0x00000014,0x0004007c,0x0000001d,0x00000070,0x0000006f,0x00060050,0x00000071,0x00000072,
	0x0000006c,0x0000006e,0x00000070,0x0004003d,0x00000006,0x00000073,0x00000035,0x0004007c,
	0x0000001d,0x00000074,0x00000073,0x0004003d,0x00000051,0x00000075,0x00000053,0x00060063,
	0x0000006a,0x00000072,0x00000075,0x00000040,0x00000074,0x000200f9,0x00000039,0x000200f8,
	0x00000039,0x0004003d,0x00000006,0x00000076,0x00000035,0x00050080,0x00000006,0x00000077,
	0x00000076,0x0000001f,0x0003003e,0x00000035,0x00000077,0x000200f9,0x00000036,0x000200f8,
	0x00000038,0x000100fd,0x00010038
};

// uint_format is the unsigned integer format of a texel size (4, 8 or 16
// bytes), the storage view of a multisampled image.
static VkFormat uint_format(uint32_t bytes) {
	switch (bytes) {
	case 4: return VK_FORMAT_R32_UINT;
	case 8: return VK_FORMAT_R32G32_UINT;
	case 16: return VK_FORMAT_R32G32B32A32_UINT;
	}
	die("a multisampled image has 4, 8 or 16 bytes a texel");
	return VK_FORMAT_UNDEFINED;
}

// ms_upload_pipeline makes the compute pipeline and descriptor set that
// write image b (kind 5) from its staging buffer.
static void ms_upload_pipeline(VkDevice dev, Buf *b) {
	VkDescriptorSetLayoutBinding lb[2] = {
		{0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
		{1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
	};
	VkDescriptorSetLayoutCreateInfo lci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	lci.bindingCount = 2;
	lci.pBindings = lb;
	VkDescriptorSetLayout dsl;
	CHECK(vkCreateDescriptorSetLayout(dev, &lci, NULL, &dsl));
	VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &dsl;
	CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &b->ulayout));
	VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	smci.codeSize = sizeof msupload;
	smci.pCode = msupload;
	VkShaderModule sm;
	CHECK(vkCreateShaderModule(dev, &smci, NULL, &sm));
	VkComputePipelineCreateInfo cpci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
	cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
	cpci.stage.module = sm;
	cpci.stage.pName = "main";
	cpci.layout = b->ulayout;
	CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &b->upipe));
	VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
	VkDescriptorPoolCreateInfo dpci = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
	dpci.maxSets = 1;
	dpci.poolSizeCount = 2;
	dpci.pPoolSizes = sizes;
	VkDescriptorPool pool;
	CHECK(vkCreateDescriptorPool(dev, &dpci, NULL, &pool));
	VkDescriptorSetAllocateInfo dsai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
	dsai.descriptorPool = pool;
	dsai.descriptorSetCount = 1;
	dsai.pSetLayouts = &dsl;
	CHECK(vkAllocateDescriptorSets(dev, &dsai, &b->uset));
	VkDescriptorImageInfo ii = {VK_NULL_HANDLE, b->sview, VK_IMAGE_LAYOUT_GENERAL};
	VkDescriptorBufferInfo bi = {b->buf, 0, VK_WHOLE_SIZE};
	VkWriteDescriptorSet w[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}, {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
	w[0].dstSet = w[1].dstSet = b->uset;
	w[0].dstBinding = 0;
	w[0].descriptorCount = 1;
	w[0].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
	w[0].pImageInfo = &ii;
	w[1].dstBinding = 1;
	w[1].descriptorCount = 1;
	w[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
	w[1].pBufferInfo = &bi;
	vkUpdateDescriptorSets(dev, 2, w, 0, NULL);
}

static VkDescriptorType desc_type(uint32_t kind) {
	switch (kind) {
	case 1: return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
	case 2: return VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
	case 3: return VK_DESCRIPTOR_TYPE_SAMPLER;
	case 4: return VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
	case 5: return VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
	}
	return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
}

// read_back_images copies every storage image (kind 4) back into its
// staging buffer after the texel header, once the shader stage is done.
static void read_back_images(VkCommandBuffer cb, Buf *bufs, uint32_t nbuf, VkPipelineStageFlags stage) {
	for (uint32_t i = 0; i < nbuf; i++) {
		Buf *b = &bufs[i];
		if (b->kind != 4) continue;
		uint32_t *w = (uint32_t *)b->data;
		int is3d = w[6] == VK_IMAGE_VIEW_TYPE_3D;
		VkImageMemoryBarrier ib = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
		ib.srcQueueFamilyIndex = ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
		ib.image = b->image;
		ib.subresourceRange.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
		ib.subresourceRange.levelCount = 1;
		ib.subresourceRange.layerCount = is3d ? 1 : w[4];
		ib.oldLayout = VK_IMAGE_LAYOUT_GENERAL;
		ib.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
		ib.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
		ib.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
		vkCmdPipelineBarrier(cb, stage, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, &ib);
		VkBufferImageCopy r = {0};
		r.bufferOffset = 28;
		r.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
		r.imageSubresource.layerCount = is3d ? 1 : w[4];
		r.imageExtent.width = w[2];
		r.imageExtent.height = w[3];
		r.imageExtent.depth = is3d ? w[4] : 1;
		vkCmdCopyImageToBuffer(cb, b->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, b->buf, 1, &r);
	}
}

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
	app.apiVersion = VK_API_VERSION_1_2; // 1.2 for the Vulkan 1.1/1.2 feature structs (float16, 16-bit storage, int64 atomics)
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

static VkFormat target_formats[8];

// Target is one color attachment and the host-visible buffer it is
// copied to.
typedef struct {
	VkImage image;
	VkImageView view;
	VkDeviceMemory mem, bufmem;
	VkBuffer buf;
	void *map;
} Target;

static uint32_t mem_type(const VkPhysicalDeviceMemoryProperties *mp, uint32_t bits, uint32_t want) {
	for (uint32_t t = 0; t < mp->memoryTypeCount; t++)
		if ((bits & (1u << t)) && (mp->memoryTypes[t].propertyFlags & want) == want) return t;
	die("no suitable memory type");
	return 0;
}

// make_targets creates the color attachments, their read-back buffers, a
// render pass that clears them to zero and leaves them ready for a copy,
// and the framebuffer.
static VkRenderPass make_targets(VkDevice dev, const VkPhysicalDeviceMemoryProperties *mp, Target *t, uint32_t n,
                                 uint32_t w, uint32_t h, VkFramebuffer *fb) {
	VkAttachmentDescription ad[8];
	VkAttachmentReference ar[8];
	VkImageView views[8];
	for (uint32_t i = 0; i < n; i++) {
		VkImageCreateInfo ici = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
		ici.imageType = VK_IMAGE_TYPE_2D;
		ici.format = target_formats[i];
		ici.extent.width = w;
		ici.extent.height = h;
		ici.extent.depth = 1;
		ici.mipLevels = 1;
		ici.arrayLayers = 1;
		ici.samples = VK_SAMPLE_COUNT_1_BIT;
		ici.tiling = VK_IMAGE_TILING_OPTIMAL;
		ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
		ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
		CHECK(vkCreateImage(dev, &ici, NULL, &t[i].image));
		VkMemoryRequirements req;
		vkGetImageMemoryRequirements(dev, t[i].image, &req);
		VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
		mai.allocationSize = req.size;
		mai.memoryTypeIndex = mem_type(mp, req.memoryTypeBits, 0);
		CHECK(vkAllocateMemory(dev, &mai, NULL, &t[i].mem));
		CHECK(vkBindImageMemory(dev, t[i].image, t[i].mem, 0));
		VkImageViewCreateInfo vci = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
		vci.image = t[i].image;
		vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
		vci.format = ici.format;
		vci.subresourceRange.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
		vci.subresourceRange.levelCount = 1;
		vci.subresourceRange.layerCount = 1;
		CHECK(vkCreateImageView(dev, &vci, NULL, &t[i].view));
		views[i] = t[i].view;

		VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
		bci.size = (VkDeviceSize)w * h * 16;
		bci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
		CHECK(vkCreateBuffer(dev, &bci, NULL, &t[i].buf));
		vkGetBufferMemoryRequirements(dev, t[i].buf, &req);
		mai.allocationSize = req.size;
		mai.memoryTypeIndex = mem_type(mp, req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
		CHECK(vkAllocateMemory(dev, &mai, NULL, &t[i].bufmem));
		CHECK(vkBindBufferMemory(dev, t[i].buf, t[i].bufmem, 0));
		CHECK(vkMapMemory(dev, t[i].bufmem, 0, VK_WHOLE_SIZE, 0, &t[i].map));

		memset(&ad[i], 0, sizeof ad[i]);
		ad[i].format = ici.format;
		ad[i].samples = VK_SAMPLE_COUNT_1_BIT;
		ad[i].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
		ad[i].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
		ad[i].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
		ad[i].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
		ad[i].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
		ad[i].finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
		ar[i].attachment = i;
		ar[i].layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
	}
	VkSubpassDescription sd = {0};
	sd.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
	sd.colorAttachmentCount = n;
	sd.pColorAttachments = ar;
	// Make the attachment writes visible to the copy after the pass.
	VkSubpassDependency dep = {0};
	dep.srcSubpass = 0;
	dep.dstSubpass = VK_SUBPASS_EXTERNAL;
	dep.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
	dep.dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
	dep.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
	dep.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
	VkRenderPassCreateInfo rpci = {VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
	rpci.attachmentCount = n;
	rpci.pAttachments = ad;
	rpci.subpassCount = 1;
	rpci.pSubpasses = &sd;
	rpci.dependencyCount = 1;
	rpci.pDependencies = &dep;
	VkRenderPass rp;
	CHECK(vkCreateRenderPass(dev, &rpci, NULL, &rp));
	VkFramebufferCreateInfo fci = {VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
	fci.renderPass = rp;
	fci.attachmentCount = n;
	fci.pAttachments = views;
	fci.width = w;
	fci.height = h;
	fci.layers = 1;
	CHECK(vkCreateFramebuffer(dev, &fci, NULL, fb));
	return rp;
}

// graphics_pipeline builds a pipeline without vertex buffers: triangle
// list, the whole viewport, no culling, one sample, no blending.
static VkPipeline graphics_pipeline(VkDevice dev, VkPipelineLayout layout, VkRenderPass rp, VkShaderModule vs,
                                    const char *ventry, VkShaderModule fs, const char *fentry, uint32_t n,
                                    uint32_t w, uint32_t h) {
	VkPipelineShaderStageCreateInfo st[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
	                                         {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
	st[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
	st[0].module = vs;
	st[0].pName = ventry;
	st[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
	st[1].module = fs;
	st[1].pName = fentry;
	VkPipelineVertexInputStateCreateInfo vi = {VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
	VkPipelineInputAssemblyStateCreateInfo ia = {VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
	ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	VkViewport vp = {0, 0, (float)w, (float)h, 0, 1};
	VkRect2D sc = {{0, 0}, {w, h}};
	VkPipelineViewportStateCreateInfo vps = {VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
	vps.viewportCount = 1;
	vps.pViewports = &vp;
	vps.scissorCount = 1;
	vps.pScissors = &sc;
	VkPipelineRasterizationStateCreateInfo rs = {VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
	rs.polygonMode = VK_POLYGON_MODE_FILL;
	rs.cullMode = VK_CULL_MODE_NONE;
	rs.frontFace = VK_FRONT_FACE_CLOCKWISE;
	rs.lineWidth = 1;
	VkPipelineMultisampleStateCreateInfo ms = {VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
	ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
	VkPipelineColorBlendAttachmentState cba[8];
	memset(cba, 0, sizeof cba);
	for (uint32_t i = 0; i < n; i++)
		cba[i].colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
	VkPipelineColorBlendStateCreateInfo cb = {VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
	cb.attachmentCount = n;
	cb.pAttachments = cba;
	VkGraphicsPipelineCreateInfo gci = {VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
	gci.stageCount = 2;
	gci.pStages = st;
	gci.pVertexInputState = &vi;
	gci.pInputAssemblyState = &ia;
	gci.pViewportState = &vps;
	gci.pRasterizationState = &rs;
	gci.pMultisampleState = &ms;
	gci.pColorBlendState = &cb;
	gci.layout = layout;
	gci.renderPass = rp;
	VkPipeline p;
	CHECK(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gci, NULL, &p));
	return p;
}

int main(int argc, char **argv) {
	if (argc == 2 && strcmp(argv[1], "--info") == 0) {
		pick_device();
		// Descriptor arrays: non-uniform indexing of storage buffers
		// and sampled images (descriptor indexing), dynamically
		// uniform indexing of sampled and storage image arrays (1.0
		// features), runtime descriptor arrays.
		VkPhysicalDeviceVulkan12Features f12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
		VkPhysicalDeviceFeatures2 feats2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
		if (VK_VERSION_MINOR(props.apiVersion) >= 2 || VK_VERSION_MAJOR(props.apiVersion) > 1) feats2.pNext = &f12;
		vkGetPhysicalDeviceFeatures2(phys, &feats2);
		printf("device=%s subgroup=%u api=%u.%u nonuniform=%d imagearrays=%d runtimearrays=%d\n", props.deviceName, subgroup_size(),
		       VK_VERSION_MAJOR(props.apiVersion), VK_VERSION_MINOR(props.apiVersion),
		       f12.shaderStorageBufferArrayNonUniformIndexing && f12.shaderSampledImageArrayNonUniformIndexing && f12.shaderStorageImageArrayNonUniformIndexing && f12.shaderUniformBufferArrayNonUniformIndexing,
		       feats2.features.shaderSampledImageArrayDynamicIndexing && feats2.features.shaderStorageImageArrayDynamicIndexing,
		       f12.runtimeDescriptorArray);
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

	uint32_t mode = rd();
	uint32_t groups[3] = {1, 1, 1}, width = 0, height = 0, ntargets = 0;
	if (mode == 0) {
		groups[0] = rd();
		groups[1] = rd();
		groups[2] = rd();
	} else {
		width = rd();
		height = rd();
		ntargets = rd();
		if (width == 0 || height == 0 || width > 4096 || height > 4096 || ntargets > 8) die("bad draw size");
		for (uint32_t i = 0; i < ntargets; i++) {
			uint32_t k = rd();
			if (k > 2) die("bad target kind");
			target_formats[i] = k == 0 ? VK_FORMAT_R32G32B32A32_SFLOAT : k == 1 ? VK_FORMAT_R32G32B32A32_SINT : VK_FORMAT_R32G32B32A32_UINT;
		}
	}
	uint32_t nbuf = rd();
	Buf *bufs = calloc(nbuf ? nbuf : 1, sizeof *bufs);
	uint32_t maxset = 0;
	for (uint32_t i = 0; i < nbuf; i++) {
		bufs[i].set = rd();
		bufs[i].binding = rd();
		bufs[i].elem = rd();
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
	uint32_t vwords = 0, *vcode = NULL;
	char *ventry = NULL;
	if (mode != 0) {
		vwords = rd();
		vcode = (uint32_t *)rdbytes(vwords * 4);
		uint32_t vlen = rd();
		ventry = calloc(vlen + 1, 1);
		memcpy(ventry, rdbytes(vlen), vlen);
	}

	pick_device();
	uint32_t nq = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(phys, &nq, NULL);
	VkQueueFamilyProperties *qf = calloc(nq, sizeof *qf);
	vkGetPhysicalDeviceQueueFamilyProperties(phys, &nq, qf);
	uint32_t family = UINT32_MAX;
	VkQueueFlags qwant = mode == 0 ? VK_QUEUE_COMPUTE_BIT : VK_QUEUE_GRAPHICS_BIT;
	for (uint32_t i = 0; i < nq; i++)
		if (qf[i].queueFlags & qwant) {
			family = i;
			break;
		}
	if (family == UINT32_MAX) die("no suitable queue");
	float prio = 1.0f;
	VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
	qci.queueFamilyIndex = family;
	qci.queueCount = 1;
	qci.pQueuePriorities = &prio;
	// Every feature the device has is enabled (shaderFloat64, shaderInt64,
	// shaderInt16 among the core ones; on a 1.2 device also the Vulkan 1.1
	// and 1.2 ones: 16-bit storage, shaderFloat16, int64 buffer atomics),
	// except robust buffer access.
	VkPhysicalDeviceVulkan12Features f12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	VkPhysicalDeviceVulkan11Features f11 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
	VkPhysicalDeviceFeatures2 feats2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	int v12 = VK_VERSION_MINOR(props.apiVersion) >= 2 || VK_VERSION_MAJOR(props.apiVersion) > 1;
	if (v12) {
		f11.pNext = &f12;
		feats2.pNext = &f11;
	}
	vkGetPhysicalDeviceFeatures2(phys, &feats2);
	feats2.features.robustBufferAccess = VK_FALSE; // out-of-bounds behaviour stays the driver's
	VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
	dci.queueCreateInfoCount = 1;
	dci.pQueueCreateInfos = &qci;
	dci.pNext = &feats2;
	VkDevice dev;
	CHECK(vkCreateDevice(phys, &dci, NULL, &dev));
	VkQueue queue;
	vkGetDeviceQueue(dev, family, 0, &queue);

	VkPhysicalDeviceMemoryProperties mp;
	vkGetPhysicalDeviceMemoryProperties(phys, &mp);
	uint32_t nstorage = 0, nuniform = 0, nimages = 0, nsamplers = 0, nsimages = 0;
	for (uint32_t i = 0; i < nbuf; i++) {
		Buf *b = &bufs[i];
		if (b->kind > 5) die("bad buffer kind");
		if (b->kind == 3) {
			if (b->size < 48) die("short sampler");
			uint32_t *w = (uint32_t *)b->data;
			float *fl = (float *)b->data;
			VkSamplerCreateInfo sci = {VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
			sci.magFilter = w[0];
			sci.minFilter = w[1];
			sci.mipmapMode = w[2];
			sci.addressModeU = w[3];
			sci.addressModeV = w[4];
			sci.addressModeW = w[5];
			sci.compareEnable = w[6];
			sci.compareOp = w[7];
			sci.borderColor = w[8];
			sci.minLod = fl[9];
			sci.maxLod = fl[10];
			sci.mipLodBias = fl[11];
			CHECK(vkCreateSampler(dev, &sci, NULL, &b->sampler));
			nsamplers++;
			continue;
		}
		VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
		bci.size = b->size ? b->size : 4;
		bci.usage = b->kind == 2 || b->kind == 4 ? VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT : b->kind == 1 ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
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
		if (b->kind == 2 || b->kind == 4 || b->kind == 5) {
			if (b->size < 28) die("short image");
			uint32_t *w = (uint32_t *)b->data;
			VkImageCreateInfo ici = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
			ici.imageType = VK_IMAGE_TYPE_2D;
			ici.format = w[0];
			ici.extent.width = w[2];
			ici.extent.height = w[3];
			ici.extent.depth = 1;
			ici.arrayLayers = w[4];
			ici.mipLevels = w[5];
			ici.samples = VK_SAMPLE_COUNT_1_BIT;
			ici.tiling = VK_IMAGE_TILING_OPTIMAL;
			ici.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
			if (b->kind == 4) {
				if (w[5] != 1) die("a storage image has one level");
				ici.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
			}
			if (b->kind == 5) {
				// Multisampled: written through a storage view of the
				// texel size's unsigned format (msupload).
				ici.samples = w[5];
				ici.mipLevels = 1;
				ici.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT;
				ici.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
				if ((uint64_t)w[2] * w[3] * w[4] * w[5] * w[1] + 28 > b->size) die("image data too short");
			}
			ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
			if (w[6] == VK_IMAGE_VIEW_TYPE_CUBE || w[6] == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY) ici.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
			if (w[6] == VK_IMAGE_VIEW_TYPE_1D || w[6] == VK_IMAGE_VIEW_TYPE_1D_ARRAY) ici.imageType = VK_IMAGE_TYPE_1D;
			if (w[6] == VK_IMAGE_VIEW_TYPE_3D) {
				ici.imageType = VK_IMAGE_TYPE_3D;
				ici.extent.depth = w[4];
				ici.arrayLayers = 1;
			}
			CHECK(vkCreateImage(dev, &ici, NULL, &b->image));
			VkMemoryRequirements ireq;
			vkGetImageMemoryRequirements(dev, b->image, &ireq);
			VkMemoryAllocateInfo imai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
			imai.allocationSize = ireq.size;
			imai.memoryTypeIndex = mem_type(&mp, ireq.memoryTypeBits, 0);
			CHECK(vkAllocateMemory(dev, &imai, NULL, &b->imem));
			CHECK(vkBindImageMemory(dev, b->image, b->imem, 0));
			VkImageViewCreateInfo vci = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
			vci.image = b->image;
			vci.viewType = w[6];
			vci.format = w[0];
			vci.subresourceRange.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
			vci.subresourceRange.levelCount = b->kind == 5 ? 1 : w[5];
			vci.subresourceRange.layerCount = w[6] == VK_IMAGE_VIEW_TYPE_3D ? 1 : w[4];
			CHECK(vkCreateImageView(dev, &vci, NULL, &b->view));
			if (b->kind == 5) {
				vci.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
				vci.format = uint_format(w[1]);
				CHECK(vkCreateImageView(dev, &vci, NULL, &b->sview));
				ms_upload_pipeline(dev, b);
			}
			if (b->kind == 4) nsimages++;
			else nimages++;
		} else if (b->kind) nuniform++;
		else nstorage++;
	}

	uint32_t nsets = nbuf ? maxset + 1 : 0;
	VkDescriptorSetLayout *layouts = calloc(nsets ? nsets : 1, sizeof *layouts);
	// Descriptors per type over all layouts (arrays may have unbound
	// elements, so the buffer counts above can be short).
	nstorage = nuniform = nimages = nsamplers = nsimages = 0;
	for (uint32_t s = 0; s < nsets; s++) {
		VkDescriptorSetLayoutBinding *lb = calloc(nbuf, sizeof *lb);
		uint32_t n = 0;
		for (uint32_t i = 0; i < nbuf; i++) {
			if (bufs[i].set != s) continue;
			// Elements of one binding share its layout entry: an
			// arrayed descriptor of max element + 1.
			uint32_t j = 0;
			while (j < n && lb[j].binding != bufs[i].binding) j++;
			if (j < n) {
				if (lb[j].descriptorType != desc_type(bufs[i].kind)) die("two descriptor types at one binding");
				if (bufs[i].elem + 1 > lb[j].descriptorCount) lb[j].descriptorCount = bufs[i].elem + 1;
				continue;
			}
			lb[n].binding = bufs[i].binding;
			lb[n].descriptorType = desc_type(bufs[i].kind);
			lb[n].descriptorCount = bufs[i].elem + 1;
			lb[n].stageFlags = mode == 0 ? VK_SHADER_STAGE_COMPUTE_BIT : VK_SHADER_STAGE_ALL_GRAPHICS;
			n++;
		}
		for (uint32_t j = 0; j < n; j++) {
			switch (lb[j].descriptorType) {
			case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: nuniform += lb[j].descriptorCount; break;
			case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE: nimages += lb[j].descriptorCount; break;
			case VK_DESCRIPTOR_TYPE_SAMPLER: nsamplers += lb[j].descriptorCount; break;
			case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: nsimages += lb[j].descriptorCount; break;
			default: nstorage += lb[j].descriptorCount;
			}
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
	VkPipeline pipe;
	Target *targets = NULL;
	VkRenderPass rpass = VK_NULL_HANDLE;
	VkFramebuffer fb = VK_NULL_HANDLE;
	if (mode == 0) {
		VkComputePipelineCreateInfo cpci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
		cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
		cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
		cpci.stage.module = sm;
		cpci.stage.pName = entry;
		cpci.layout = playout;
		CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipe));
	} else {
		smci.codeSize = vwords * 4;
		smci.pCode = vcode;
		VkShaderModule vsm;
		CHECK(vkCreateShaderModule(dev, &smci, NULL, &vsm));
		targets = calloc(ntargets ? ntargets : 1, sizeof *targets);
		rpass = make_targets(dev, &mp, targets, ntargets, width, height, &fb);
		pipe = graphics_pipeline(dev, playout, rpass, vsm, ventry, sm, entry, ntargets, width, height);
	}

	VkDescriptorSet *sets = calloc(nsets ? nsets : 1, sizeof *sets);
	if (nsets) {
		VkDescriptorPoolSize sizes[5];
		uint32_t ns = 0;
		if (nstorage) sizes[ns++] = (VkDescriptorPoolSize){VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nstorage};
		if (nuniform) sizes[ns++] = (VkDescriptorPoolSize){VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, nuniform};
		if (nimages) sizes[ns++] = (VkDescriptorPoolSize){VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, nimages};
		if (nsamplers) sizes[ns++] = (VkDescriptorPoolSize){VK_DESCRIPTOR_TYPE_SAMPLER, nsamplers};
		if (nsimages) sizes[ns++] = (VkDescriptorPoolSize){VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, nsimages};
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
			VkDescriptorImageInfo ii = {bufs[i].sampler, bufs[i].view, bufs[i].kind == 4 ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
			VkWriteDescriptorSet w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
			w.dstSet = sets[bufs[i].set];
			w.dstBinding = bufs[i].binding;
			w.dstArrayElement = bufs[i].elem;
			w.descriptorCount = 1;
			w.descriptorType = desc_type(bufs[i].kind);
			if (bufs[i].kind >= 2) w.pImageInfo = &ii;
			else w.pBufferInfo = &bi;
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
	// Upload the images: staging buffer -> every level and layer; a
	// multisampled image through msupload.
	for (uint32_t i = 0; i < nbuf; i++) {
		Buf *b = &bufs[i];
		if (b->kind == 5) {
			uint32_t *w = (uint32_t *)b->data;
			VkImageMemoryBarrier ib = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
			ib.srcQueueFamilyIndex = ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
			ib.image = b->image;
			ib.subresourceRange.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
			ib.subresourceRange.levelCount = 1;
			ib.subresourceRange.layerCount = w[4];
			ib.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
			ib.newLayout = VK_IMAGE_LAYOUT_GENERAL;
			ib.dstAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
			vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL, 0, NULL, 1, &ib);
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, b->upipe);
			vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, b->ulayout, 0, 1, &b->uset, 0, NULL);
			vkCmdDispatch(cb, w[2], w[3], w[4]);
			ib.oldLayout = VK_IMAGE_LAYOUT_GENERAL;
			ib.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
			ib.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
			ib.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
			vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, NULL, 0, NULL, 1, &ib);
			continue;
		}
		if (b->kind != 2 && b->kind != 4) continue;
		uint32_t *w = (uint32_t *)b->data;
		int is3d = w[6] == VK_IMAGE_VIEW_TYPE_3D;
		uint32_t layers = is3d ? 1 : w[4], depth = is3d ? w[4] : 1;
		VkImageMemoryBarrier ib = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
		ib.srcQueueFamilyIndex = ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
		ib.image = b->image;
		ib.subresourceRange.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
		ib.subresourceRange.levelCount = w[5];
		ib.subresourceRange.layerCount = layers;
		ib.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
		ib.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
		ib.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, &ib);
		VkDeviceSize off = 28;
		for (uint32_t k = 0; k < w[5]; k++) {
			uint32_t lw = w[2] >> k ? w[2] >> k : 1, lh = w[3] >> k ? w[3] >> k : 1;
			VkBufferImageCopy r = {0};
			r.bufferOffset = off;
			r.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
			r.imageSubresource.mipLevel = k;
			r.imageSubresource.layerCount = layers;
			r.imageExtent.width = lw;
			r.imageExtent.height = lh;
			r.imageExtent.depth = depth;
			off += (VkDeviceSize)lw * lh * w[4] * w[1];
			if (off > b->size) die("image data too short");
			vkCmdCopyBufferToImage(cb, b->buf, b->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
		}
		ib.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
		ib.newLayout = b->kind == 4 ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
		ib.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
		ib.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | (b->kind == 4 ? VK_ACCESS_SHADER_WRITE_BIT : 0);
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, NULL, 0, NULL, 1, &ib);
	}
	if (mode == 0) {
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
		if (nsets) vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, playout, 0, nsets, sets, 0, NULL);
		vkCmdDispatch(cb, groups[0], groups[1], groups[2]);
		read_back_images(cb, bufs, nbuf, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
		VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
		mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
	} else {
		VkClearValue clears[8];
		memset(clears, 0, sizeof clears);
		VkRenderPassBeginInfo rpbi = {VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
		rpbi.renderPass = rpass;
		rpbi.framebuffer = fb;
		rpbi.renderArea.extent.width = width;
		rpbi.renderArea.extent.height = height;
		rpbi.clearValueCount = ntargets;
		rpbi.pClearValues = clears;
		vkCmdBeginRenderPass(cb, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		if (nsets) vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, playout, 0, nsets, sets, 0, NULL);
		vkCmdDraw(cb, 3, 1, 0, 0);
		vkCmdEndRenderPass(cb);
		read_back_images(cb, bufs, nbuf, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT);
		// The render pass leaves the targets in TRANSFER_SRC_OPTIMAL.
		for (uint32_t i = 0; i < ntargets; i++) {
			VkBufferImageCopy r = {0};
			r.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
			r.imageSubresource.layerCount = 1;
			r.imageExtent.width = width;
			r.imageExtent.height = height;
			r.imageExtent.depth = 1;
			vkCmdCopyImageToBuffer(cb, targets[i].image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, targets[i].buf, 1, &r);
		}
		VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
		mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
	}
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
		fwrite(bufs[i].kind == 3 ? (void *)bufs[i].data : bufs[i].map, 1, sz, o);
		uint32_t zero = 0;
		fwrite(&zero, 1, ((sz + 3u) & ~3u) - sz, o);
	}
	for (uint32_t i = 0; i < ntargets; i++) fwrite(targets[i].map, 1, (size_t)width * height * 16, o);
	fclose(o);
	return 0;
}
