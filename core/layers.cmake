# SPDX-License-Identifier: MIT
# The layers, enforced by the build. Included by the top-level CMakeLists.txt (functions) and
# run by the build as a script (-P) that checks one target's includes.
#
# Every project include is written from the repository root ("core/graph/graph.h"). A target
# may include only its own folder (or, when it lists its files, its own headers) and the layers
# it USES (transitively); core includes no Qt; ui models include no widgets. A violation fails
# the build and names the file and the include.

if(CMAKE_SCRIPT_MODE_FILE)
    # Script mode: NAME, ALLOWED (;-separated folder prefixes), OWN_LIST (a file listing headers,
    # written from the root, that may be included as well; may be absent), FORBID (regex of
    # system includes that are not allowed, may be empty), FILES_LIST (a file listing the files),
    # STAMP.
    file(STRINGS "${FILES_LIST}" files)
    set(own "")
    if(OWN_LIST)
        file(STRINGS "${OWN_LIST}" own)
    endif()
    set(problems "")
    foreach(file IN LISTS files)
        file(STRINGS "${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
        foreach(line IN LISTS includes)
            if(line MATCHES "#[ \t]*include[ \t]*\"([^\"]+)\"")
                set(header "${CMAKE_MATCH_1}")
                if(header MATCHES "(_generated\\.h|\\.moc)$")
                    continue()
                endif()
                if(NOT header MATCHES "/")
                    string(APPEND problems "${file}: #include \"${header}\": write project includes from the repository root\n")
                    continue()
                endif()
                set(allowed FALSE)
                list(FIND own "${header}" index)
                if(index GREATER -1)
                    set(allowed TRUE)
                endif()
                foreach(prefix IN LISTS ALLOWED)
                    string(LENGTH "${prefix}/" length)
                    string(SUBSTRING "${header}" 0 ${length} start)
                    if(start STREQUAL "${prefix}/")
                        set(allowed TRUE)
                        break()
                    endif()
                endforeach()
                if(NOT allowed)
                    string(REPLACE ";" ", " may "${ALLOWED}")
                    if(own)
                        string(APPEND may " and its own headers")
                    endif()
                    string(APPEND problems
                        "${file}: #include \"${header}\": ${NAME} may include only ${may} (docs/HACKING.md, \"Layers\")\n")
                endif()
            elseif(FORBID AND line MATCHES "#[ \t]*include[ \t]*<([^>]+)>")
                set(header "${CMAKE_MATCH_1}")
                if(header MATCHES "${FORBID}")
                    string(APPEND problems "${file}: #include <${header}>: not allowed in ${NAME}\n")
                endif()
            endif()
        endforeach()
    endforeach()
    if(problems)
        message(FATAL_ERROR "Layer violation in ${NAME}:\n${problems}")
    endif()
    file(TOUCH "${STAMP}")
    return()
endif()

set(ETSCOPE_LAYERS_SCRIPT "${CMAKE_CURRENT_LIST_FILE}")

# etscope_check_layers(<target> ALLOWED <folder prefixes> [FORBID <regex>]
#                      [DIRS <folders> | FILES <files>]):
# before <target> compiles, checks every .h/.cpp under DIRS (default: the current source folder),
# or exactly the FILES (relative to the current source folder), file by file. With FILES the
# target may include, besides the ALLOWED folders, the headers among its FILES and no other file
# of their folders: the ui models share feature folders with widgets (ui/memory/…) and are
# still refused a widget header.
function(etscope_check_layers target)
    cmake_parse_arguments(L "" "FORBID" "ALLOWED;DIRS;FILES" ${ARGN})
    if(L_DIRS AND L_FILES)
        message(FATAL_ERROR "etscope_check_layers(${target}): give DIRS or FILES, not both")
    endif()
    set(files "")
    set(own "")
    set(own_list "")
    if(L_FILES)
        foreach(file IN LISTS L_FILES)
            get_filename_component(path "${file}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
            if(NOT EXISTS "${path}")
                message(FATAL_ERROR "etscope_check_layers(${target}): no file ${path}")
            endif()
            list(APPEND files "${path}")
            if(path MATCHES "\\.h$")
                file(RELATIVE_PATH header "${PROJECT_SOURCE_DIR}" "${path}")
                list(APPEND own "${header}")
            endif()
        endforeach()
    else()
        if(NOT L_DIRS)
            set(L_DIRS "${CMAKE_CURRENT_SOURCE_DIR}")
        endif()
        foreach(dir IN LISTS L_DIRS)
            file(GLOB_RECURSE found CONFIGURE_DEPENDS "${dir}/*.h" "${dir}/*.cpp")
            list(APPEND files ${found})
        endforeach()
    endif()
    set(list "${CMAKE_CURRENT_BINARY_DIR}/${target}.layers.txt")
    string(REPLACE ";" "\n" lines "${files}")
    file(WRITE "${list}" "${lines}\n")
    set(own_arg "")
    if(own)
        set(own_list "${CMAKE_CURRENT_BINARY_DIR}/${target}.layers.own.txt")
        string(REPLACE ";" "\n" lines "${own}")
        file(WRITE "${own_list}" "${lines}\n")
        set(own_arg "-DOWN_LIST=${own_list}")
    endif()
    set(stamp "${CMAKE_CURRENT_BINARY_DIR}/${target}.layers.stamp")
    add_custom_command(
        OUTPUT "${stamp}"
        COMMAND "${CMAKE_COMMAND}" "-DNAME=${target}" "-DALLOWED=${L_ALLOWED}" "-DFORBID=${L_FORBID}"
            ${own_arg} "-DFILES_LIST=${list}" "-DSTAMP=${stamp}" -P "${ETSCOPE_LAYERS_SCRIPT}"
        DEPENDS ${files} "${ETSCOPE_LAYERS_SCRIPT}" "${list}" ${own_list}
        COMMENT "Checking the includes of ${target} against its layers"
        VERBATIM)
    add_custom_target(${target}_layers DEPENDS "${stamp}")
    add_dependencies(${target} ${target}_layers)
endfunction()

# etscope_core_area(<area> SOURCES … [USES <areas>] [PUBLIC_LIBS …] [PRIVATE_LIBS …]): the
# library etscope_core_<area> from core/<area>, linking the areas it uses and allowed to
# include them and whatever they may include. Areas are defined lowest first.
function(etscope_core_area area)
    cmake_parse_arguments(A "" "" "SOURCES;USES;PUBLIC_LIBS;PRIVATE_LIBS" ${ARGN})
    set(target etscope_core_${area})
    add_library(${target} STATIC ${A_SOURCES})
    target_include_directories(${target} PUBLIC "${PROJECT_SOURCE_DIR}")
    set(reach "core/${area}")
    set(uses "")
    foreach(use IN LISTS A_USES)
        if(NOT TARGET etscope_core_${use})
            message(FATAL_ERROR "core/${area} uses core/${use}, which is not defined below it")
        endif()
        list(APPEND uses etscope_core_${use})
        get_property(below GLOBAL PROPERTY ETSCOPE_REACH_${use})
        list(APPEND reach ${below})
    endforeach()
    list(REMOVE_DUPLICATES reach)
    set_property(GLOBAL PROPERTY ETSCOPE_REACH_${area} "${reach}")
    target_link_libraries(${target} PUBLIC ${uses} ${A_PUBLIC_LIBS} PRIVATE ${A_PRIVATE_LIBS})
    etscope_check_layers(${target} ALLOWED ${reach} FORBID "^Q")
endfunction()
