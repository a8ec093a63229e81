# SPDX-License-Identifier: MIT
# core/layout: Graphviz (cgraph/gvc) → plain geometry. Graphviz is not thread-safe; the code
# serialises every call on one lock. Edges are routed here, not by Graphviz (edgeroute.h).
list(APPEND ETSCOPE_CORE_SOURCES layout/graphlayout.cpp layout/composedlayout.cpp layout/edgeroute.cpp layout/rankdepth.cpp
    layout/layoutwire.cpp
    layout/openinglayout.cpp)
list(APPEND ETSCOPE_CORE_PRIVATE_LIBS PkgConfig::GVC)
