# The simulator core's profile (cmake -P; docs/codegen.md): simulators of the
# training networks are built against the instrumented core, run, and their
# counts merged into OUT, which the core is then compiled with. Every run is
# seeded, so the profile's counts are the same on every build (its names of
# file-local functions hold the source path).
#
# In: NDLC, CORE (instrumented bitcode), CLANGXX, PROFDATA, SIMRT (the
# native runtime archive), LIBS (its link libraries), SRC (the source tree),
# WORK (a scratch directory), OUT (the merged profile).
cmake_minimum_required(VERSION 3.20)

# name | NDL file (in SRC) | simulator arguments
set(runs
  "torus-light|runtime/training/torus-wormhole.ndl|--param CreationRate=0.0125"
  "torus-busy|runtime/training/torus-wormhole.ndl|--param CreationRate=0.0375 --param TimeLimitClocks=30000"
  "mesh-adaptive|runtime/training/mesh-adaptive.ndl|"
  "recover-x|examples/recover-x/hotspot-8x8-recover-x.ndl|--param TimeLimitClocks=20000"
  "disha|examples/recover-x/hotspot-8x8-disha.ndl|--param TimeLimitClocks=20000"
  "insight-saf|examples/insight/torus2d.ndl|"
  "workload-vct|examples/workloads/torus2d.ndl|--param TimeLimitClocks=10000")

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
separate_arguments(link_libs UNIX_COMMAND "${LIBS}")
foreach(run ${runs})
  string(REPLACE "|" ";" fields "${run}")
  list(GET fields 0 name)
  list(GET fields 1 src)
  list(GET fields 2 argstr)
  separate_arguments(args UNIX_COMMAND "${argstr}")
  get_filename_component(dir ${SRC}/${src} DIRECTORY)
  execute_process(
    COMMAND ${NDLC} emit-llvm --core-bitcode ${CORE} ${SRC}/${src}
    OUTPUT_FILE ${WORK}/${name}.ll RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "profile training: ndlc emit-llvm ${src} failed (${rc})")
  endif()
  # The module is optimized already: -O1 only lowers it, with the counters in place.
  execute_process(
    COMMAND ${CLANGXX} -O1 -w -fprofile-generate ${WORK}/${name}.ll ${SIMRT} ${link_libs}
            -o ${WORK}/${name}.sim
    RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "profile training: linking the ${name} simulator failed (${rc})")
  endif()
  # Relative files (a pattern file) are found beside the NDL file, as a user runs it. Exit
  # code 3 is a run stopped short of its messages (most runs here end at a time limit).
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env LLVM_PROFILE_FILE=${WORK}/${name}.profraw
            ${WORK}/${name}.sim --quiet --seed 1 --json ${WORK}/${name}.json ${args}
    WORKING_DIRECTORY ${dir} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc MATCHES "^(0|3)$" OR NOT EXISTS ${WORK}/${name}.profraw)
    message(FATAL_ERROR "profile training: the ${name} simulator failed (exit ${rc}): ${err}")
  endif()
  file(REMOVE ${WORK}/${name}.ll ${WORK}/${name}.sim)  # 20 MB a run
  list(APPEND raw ${WORK}/${name}.profraw)
endforeach()
execute_process(COMMAND ${PROFDATA} merge -o ${OUT} ${raw} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "profile training: llvm-profdata merge failed (${rc})")
endif()
