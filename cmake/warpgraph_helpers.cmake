# Helpers shared by every folder's CMakeLists.txt.
#
# wg_library(NAME <target> EXPORT <name> [CUDA] SOURCES ... [PUBLIC_LIBS ...] [PRIVATE_LIBS ...])
#   A static library exported as warpgraph::<name>. Sources may be .cpp or .cu. Headers are
#   reached as <warpgraph/...> both in-tree and installed.
# wg_header_library(NAME <target> EXPORT <name> [LIBS ...])
#   The same for header-only components.
set(WG_EXPORTED_TARGETS "" CACHE INTERNAL "")
set(WG_ALL_LIBRARIES "" CACHE INTERNAL "")

function(_wg_register target export_name)
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name})
  add_library(warpgraph::${export_name} ALIAS ${target})
  set(WG_EXPORTED_TARGETS ${WG_EXPORTED_TARGETS} ${target} CACHE INTERNAL "")
  set(WG_ALL_LIBRARIES ${WG_ALL_LIBRARIES} ${target} CACHE INTERNAL "")
endfunction()

function(wg_library)
  cmake_parse_arguments(A "" "NAME;EXPORT" "SOURCES;PUBLIC_LIBS;PRIVATE_LIBS" ${ARGN})
  add_library(${A_NAME} STATIC ${A_SOURCES})
  target_include_directories(${A_NAME} PUBLIC $<BUILD_INTERFACE:${WG_BUILD_INCLUDE_DIR}>
                                              $<INSTALL_INTERFACE:include>)
  target_compile_features(${A_NAME} PUBLIC cxx_std_20)
  target_link_libraries(${A_NAME} PUBLIC ${A_PUBLIC_LIBS} PRIVATE ${A_PRIVATE_LIBS})
  set_target_properties(${A_NAME} PROPERTIES POSITION_INDEPENDENT_CODE ON
                                             CUDA_SEPARABLE_COMPILATION OFF)
  wg_target_warnings(${A_NAME})
  _wg_register(${A_NAME} ${A_EXPORT})
endfunction()

function(wg_header_library)
  cmake_parse_arguments(A "" "NAME;EXPORT" "LIBS" ${ARGN})
  add_library(${A_NAME} INTERFACE)
  target_include_directories(${A_NAME} INTERFACE $<BUILD_INTERFACE:${WG_BUILD_INCLUDE_DIR}>
                                                 $<INSTALL_INTERFACE:include>)
  target_compile_features(${A_NAME} INTERFACE cxx_std_20)
  target_link_libraries(${A_NAME} INTERFACE ${A_LIBS})
  _wg_register(${A_NAME} ${A_EXPORT})
endfunction()

function(wg_target_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wno-unused-parameter>
    $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr --extended-lambda -Xcompiler=-Wall
                               -Xcompiler=-Wno-unused-parameter>)
endfunction()

# Flags every CUDA target of ours uses (tests and tools too).
function(wg_cuda_flags target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr --extended-lambda>)
endfunction()

# Adds every immediate sub-folder of the current source folder that has a CMakeLists.txt, so
# components can be added without editing their parent's list.
macro(wg_add_subdirectories)
  file(GLOB _wg_children LIST_DIRECTORIES true RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}
       ${CMAKE_CURRENT_SOURCE_DIR}/*)
  list(SORT _wg_children)
  foreach(_wg_child ${_wg_children})
    if(IS_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/${_wg_child}
       AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${_wg_child}/CMakeLists.txt)
      add_subdirectory(${_wg_child})
    endif()
  endforeach()
endmacro()

# ---- The GPU algorithm x graph instantiation matrix ------------------------------------------
# WG_GPU_GRAPHS: every GPU graph type the GPU algorithms are instantiated for, one line each
# (adding a graph type is one line here):
#   <name>|<family>|<C++ type in wg::gpu>|<its device-view header under warpgraph/>|<its target>
# The graphs of one family share one translation unit and one library per algorithm.
set(WG_GPU_GRAPHS
  "slab_set|slab|DynamicGraph<SlabSetAdjacency>|graph/gpu/graph_ref.cuh|wg_graph_gpu"
  "slab_map|slab|DynamicGraph<SlabMapAdjacency>|graph/gpu/graph_ref.cuh|wg_graph_gpu"
  "btree_set|btree|BTreeGraph<false>|graph/gpu/btree_graph_ref.cuh|wg_btree_graph_gpu"
  "btree_map|btree|BTreeGraph<true>|graph/gpu/btree_graph_ref.cuh|wg_btree_graph_gpu")

# wg_gpu_algorithm(NAME <algo> [HEADER <file.cuh>] [GRAPHS <name>...] [LIBS <target>...]
#                  INSTANTIATE <line>...)
#   Instantiates the templates of HEADER (default <algo>.cuh, beside the calling CMakeLists.txt)
#   for each graph of GRAPHS (default: all of WG_GPU_GRAPHS whose target is built). Each
#   INSTANTIATE line is one explicit instantiation without its ';', with @GRAPH@ for the graph
#   type, e.g. "template class DynamicBfs<@GRAPH@>". One generated .cu per graph family
#   (cmake/gpu_instantiation.cu.in), compiled into the library wg_<algo>_gpu (exported as
#   warpgraph::<algo>_gpu) for the slab family and wg_<algo>_<family>_gpu for the others; a
#   later family's library links the first one's, so one link line gives the algorithm on every
#   graph up to its own. LIBS: further public libraries of the first family's library (another
#   algorithm the instantiated code calls, e.g. wg_tc_gpu), linked by name.
function(wg_gpu_algorithm)
  cmake_parse_arguments(A "" "NAME;HEADER" "GRAPHS;INSTANTIATE;LIBS" ${ARGN})
  if(NOT WG_HAVE_CUDA)
    return()
  endif()
  if(NOT A_HEADER)
    set(A_HEADER ${A_NAME}.cuh)
  endif()
  file(RELATIVE_PATH WG_HEADER ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/${A_HEADER})
  set(WG_ALGORITHM ${A_NAME})
  set(families "")
  foreach(entry IN LISTS WG_GPU_GRAPHS)
    string(REPLACE "|" ";" fields "${entry}")
    list(GET fields 0 graph)
    list(GET fields 1 family)
    list(GET fields 2 GRAPH)
    list(GET fields 3 header)
    list(GET fields 4 graph_target)
    if((A_GRAPHS AND NOT graph IN_LIST A_GRAPHS) OR NOT TARGET ${graph_target})
      continue()
    endif()
    if(NOT family IN_LIST families)
      list(APPEND families ${family})
      set(body_${family} "")
      set(includes_${family} "")
      set(libs_${family} "")
    endif()
    if(NOT "#include <warpgraph/${header}>\n" IN_LIST includes_${family})
      list(APPEND includes_${family} "#include <warpgraph/${header}>\n")
    endif()
    list(APPEND libs_${family} ${graph_target})
    string(APPEND body_${family} "\n// ${graph}\n")
    foreach(line IN LISTS A_INSTANTIATE)
      string(CONFIGURE "${line}" line @ONLY)
      string(APPEND body_${family} "${line};\n")
    endforeach()
  endforeach()
  set(first_lib "")
  foreach(family IN LISTS families)
    if(family STREQUAL "slab")
      set(export ${A_NAME}_gpu)
    else()
      set(export ${A_NAME}_${family}_gpu)
    endif()
    set(WG_FAMILY ${family})
    string(JOIN "" WG_INCLUDES ${includes_${family}})
    set(WG_INSTANTIATIONS "${body_${family}}")
    set(source ${CMAKE_CURRENT_BINARY_DIR}/${export}.cu)
    configure_file(${PROJECT_SOURCE_DIR}/cmake/gpu_instantiation.cu.in ${source} @ONLY)
    list(REMOVE_DUPLICATES libs_${family})
    wg_library(NAME wg_${export} EXPORT ${export} SOURCES ${source}
               PUBLIC_LIBS ${first_lib} ${libs_${family}})
    if(NOT first_lib)
      target_link_libraries(wg_${export} PUBLIC ${A_LIBS})
      set(first_lib wg_${export})
    endif()
  endforeach()
endfunction()

# wg_register_algorithm(NAME <name> ENTRY <c++ type>)
#   The one registration of an algorithm (algorithms/registry.hpp), in its folder's
#   CMakeLists.txt: its entry type, defined in <warpgraph/algorithms/<name>/<name>_entry.hpp>;
#   its backends are the targets wg_<name>_cpu and wg_<name>_gpu where they exist.
function(wg_register_algorithm)
  cmake_parse_arguments(A "" "NAME;ENTRY" "" ${ARGN})
  set_property(GLOBAL APPEND PROPERTY WG_REGISTERED_ALGORITHMS "${A_NAME}|${A_ENTRY}")
endfunction()

# wg_algorithm_registry()
#   Called once all algorithms are configured: generates <registered_algorithms.hpp>, the list of
#   registered entries (WG_REGISTERED(X)) and of those with a CPU / GPU backend
#   (WG_REGISTERED_CPU(X), WG_REGISTERED_GPU(X); a file that defines WG_REGISTERED_WITH_CPU /
#   _GPU before including it also gets the backends' headers), and the interface targets
#   wg_algorithm_registry (the header), wg_algorithm_registry_cpu / _gpu (plus the backends).
#   The CLI and the benches iterate over these lists.
function(wg_algorithm_registry)
  get_property(algos GLOBAL PROPERTY WG_REGISTERED_ALGORITHMS)
  set(includes "")
  set(all "")
  set(cpu "")
  set(gpu "")
  set(cpu_libs "")
  set(gpu_libs "")
  foreach(algo IN LISTS algos)
    string(REPLACE "|" ";" parts "${algo}")
    list(GET parts 0 name)
    list(GET parts 1 entry)
    string(APPEND includes "#include <warpgraph/algorithms/${name}/${name}_entry.hpp>\n")
    string(APPEND all " X(${entry})")
    if(TARGET wg_${name}_cpu AND TARGET wg_graph_cpu)
      string(APPEND includes "#ifdef WG_REGISTERED_WITH_CPU\n"
        "#include <warpgraph/algorithms/${name}/cpu/${name}.hpp>\n#endif\n")
      string(APPEND cpu " X(${entry})")
      list(APPEND cpu_libs wg_${name}_cpu)
    endif()
    if(WG_HAVE_CUDA AND TARGET wg_${name}_gpu)
      string(APPEND includes "#ifdef WG_REGISTERED_WITH_GPU\n"
        "#include <warpgraph/algorithms/${name}/gpu/${name}.hpp>\n#endif\n")
      string(APPEND gpu " X(${entry})")
      list(APPEND gpu_libs wg_${name}_gpu)
    endif()
  endforeach()
  set(dir ${PROJECT_BINARY_DIR}/generated/algorithm_registry)
  file(CONFIGURE OUTPUT ${dir}/registered_algorithms.hpp CONTENT
"#pragma once
// Generated by wg_algorithm_registry() (cmake/warpgraph_helpers.cmake) from the
// wg_register_algorithm() calls: do not edit.
${includes}
#define WG_REGISTERED(X)${all}
#define WG_REGISTERED_CPU(X)${cpu}
#define WG_REGISTERED_GPU(X)${gpu}
")
  add_library(wg_algorithm_registry INTERFACE)
  target_include_directories(wg_algorithm_registry INTERFACE $<BUILD_INTERFACE:${dir}>)
  add_library(wg_algorithm_registry_cpu INTERFACE)
  target_link_libraries(wg_algorithm_registry_cpu INTERFACE wg_algorithm_registry ${cpu_libs})
  add_library(wg_algorithm_registry_gpu INTERFACE)
  target_link_libraries(wg_algorithm_registry_gpu INTERFACE wg_algorithm_registry ${gpu_libs})
endfunction()

# wg_cuda_code_target(): the target `wg_cuda_code` builds every target with CUDA sources (and what
# they link), plus the CLI, and nothing else: CI's compile check of the GPU code, which need not
# compile the CPU-only tests again (the README's command built and ran them).
function(wg_cuda_code_target)
  set(_targets)
  set(_dirs "${CMAKE_CURRENT_SOURCE_DIR}")
  while(_dirs)
    list(POP_FRONT _dirs _dir)
    get_property(_subdirs DIRECTORY "${_dir}" PROPERTY SUBDIRECTORIES)
    list(APPEND _dirs ${_subdirs})
    get_property(_in_dir DIRECTORY "${_dir}" PROPERTY BUILDSYSTEM_TARGETS)
    foreach(_t IN LISTS _in_dir)
      get_target_property(_type ${_t} TYPE)
      if(_type STREQUAL "INTERFACE_LIBRARY" OR _type STREQUAL "UTILITY")
        continue()
      endif()
      get_target_property(_sources ${_t} SOURCES)
      foreach(_s IN LISTS _sources)
        if(_s MATCHES "\\.cu$")
          list(APPEND _targets ${_t})
          break()
        endif()
      endforeach()
    endforeach()
  endwhile()
  if(TARGET warpgraph)
    list(APPEND _targets warpgraph)
  endif()
  add_custom_target(wg_cuda_code)
  if(_targets)
    add_dependencies(wg_cuda_code ${_targets})
  endif()
endfunction()
