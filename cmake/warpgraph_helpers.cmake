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
