package vkrun

import (
	"errors"
	"passlens/internal/testtool"
	"strings"
	"testing"
)

func TestDeviceInfo(t *testing.T) {
	info, err := DeviceInfo()
	if errors.Is(err, ErrUnavailable) {
		testtool.Unavailable(t, err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	if info.SubgroupSize < 1 || info.Device == "" {
		t.Fatalf("implausible device info %+v", info)
	}
	t.Logf("%s, subgroup size %d, Vulkan %s", info.Device, info.SubgroupSize, info.API)
}

func TestRunRejectsBadModule(t *testing.T) {
	if _, err := DeviceInfo(); err != nil {
		t.Skip(err)
	}
	_, err := Run(Job{SPIRV: []uint32{0x07230203, 0x00010300, 0, 1, 0}, Entry: "main"})
	if err == nil || !strings.Contains(err.Error(), "vkrun") {
		t.Fatalf("running a module without entry point: %v", err)
	}
	if _, err := Run(Job{Buffers: []Buffer{{Set: -1}}}); err == nil {
		t.Fatal("negative set accepted")
	}
}
