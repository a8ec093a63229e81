# SPDX-License-Identifier: MIT
# Delegate payload writers for fixtures: Vulkan (VH00 + VK00 graph), and the Core ML container and
# the MPS graph, which have no folder of their own.
list(APPEND ETSCOPE_WRITER_SOURCES
    vulkan/vulkanpayloadwriter.cpp
    vulkan/coremlpayloadwriter.cpp
    vulkan/mpspayloadwriter.cpp
)
