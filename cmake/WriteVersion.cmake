# Writes OUT (a C++ header defining ZLUDA_COMPILER_VERSION) from the
# release, the source revision (git describe, "-dirty" for local changes)
# and LLVM's version; rewritten only when it changes, so that a rebuild
# after a commit changes the cache keys and nothing else.
execute_process(COMMAND git -C ${SRC} describe --always --dirty --abbrev=12
                OUTPUT_VARIABLE rev OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR rev STREQUAL "")
  set(rev "unknown")
endif()
set(text "#define ZLUDA_COMPILER_VERSION \"zluda-precompile ${RELEASE}+${rev} llvm ${LLVM}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
