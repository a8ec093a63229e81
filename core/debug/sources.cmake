# SPDX-License-Identifier: MIT
# core/debug: ETRecord and ETDump readers, runtime events on the graph, numeric gap.
list(APPEND ETSCOPE_CORE_SOURCES
    debug/ziparchive.cpp
    debug/edgeprogram.cpp
    debug/edgegraph.cpp
    debug/etrecord.cpp
    debug/etdump.cpp
    debug/eventmapper.cpp
    debug/runtimeprofile.cpp
    debug/numericgap.cpp
    debug/inspectortable.cpp
    debug/debugreports.cpp
    debug/debugheat.cpp
    debug/dumpcheck.cpp
)
list(APPEND ETSCOPE_CORE_PRIVATE_LIBS libzip::zip)
