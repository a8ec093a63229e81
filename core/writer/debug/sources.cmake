# SPDX-License-Identifier: MIT
# Fixture writers for the debug formats: ETDump + debug buffer, ETRecord archives (libzip).
list(APPEND ETSCOPE_WRITER_SOURCES
    debug/etdumpwriter.cpp
    debug/etrecordwriter.cpp
)
