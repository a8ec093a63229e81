# SPDX-License-Identifier: MIT
# core/layout: Graphviz (cgraph/gvc) → plain geometry. Graphviz is not thread-safe; the code
# serialises every call on one lock.
list(APPEND ETSCOPE_CORE_SOURCES layout/graphlayout.cpp)
list(APPEND ETSCOPE_CORE_PRIVATE_LIBS PkgConfig::GVC)
