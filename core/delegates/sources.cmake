# SPDX-License-Identifier: MIT
# core/delegates: one decoder per backend family (delegate.cpp and xnnpack.cpp are listed in
# core/CMakeLists.txt); OpenVINO's IR is XML, read with tinyxml2.
list(APPEND ETSCOPE_CORE_SOURCES
    delegates/xnnpacknodes.cpp
    delegates/vulkan.cpp
    delegates/mps.cpp
    delegates/coreml.cpp
    delegates/ethosu.cpp
    delegates/vgf.cpp
    delegates/qnn.cpp
    delegates/openvino.cpp
)
list(APPEND ETSCOPE_CORE_PRIVATE_LIBS tinyxml2::tinyxml2)
