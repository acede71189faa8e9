# The commit naming of cmake/suite_commit.cmake on scratch repositories, and
# bench_compare --version printing the commit this build was configured with.
#   cmake -DSUITE_COMMIT_SCRIPT=cmake/suite_commit.cmake -DWORK_DIR=DIR
#         -DBENCH_COMPARE=PROGRAM -DCONFIGURED_COMMIT=COMMIT -P test_suite_commit.cmake
# A copy of the suite inside another repository must read unknown, tracked by
# that repository or not; -DREDUCE_GIT_COMMIT wins wherever it is given; the top
# of a work tree names its own commit, through a symlink too, -dirty when a
# tracked file is edited; a directory in no repository reads unknown.
# Runs the function itself, not a configure of a copy of the suite: that
# would compile every kernel again.
cmake_minimum_required(VERSION 3.25)
include(${SUITE_COMMIT_SCRIPT})
if(NOT GIT_EXECUTABLE)
  message(FATAL_ERROR "git not found: the commit naming cannot be tested")
endif()

# The build directory usually sits inside the suite's own checkout: a ceiling
# at WORK_DIR keeps git from finding that repository above the scratch ones,
# and an inherited GIT_DIR (a git hook running ctest) would point elsewhere.
unset(ENV{GIT_DIR})
unset(ENV{GIT_WORK_TREE})
set(ENV{GIT_CEILING_DIRECTORIES} ${WORK_DIR})
file(REMOVE_RECURSE ${WORK_DIR})
set(outer ${WORK_DIR}/users_repository)
set(copy ${outer}/reduction_suite)
file(MAKE_DIRECTORY ${copy} ${WORK_DIR}/no_repository)
file(WRITE ${outer}/notes.txt "the user's own file\n")
file(WRITE ${copy}/CMakeLists.txt "project(reduction_suite)\n")

function(run_git)
  execute_process(COMMAND ${GIT_EXECUTABLE} -c user.name=test -c user.email=test@example.com
                          -c init.defaultBranch=main ${ARGN}
                  WORKING_DIRECTORY ${outer} RESULT_VARIABLE failed
                  OUTPUT_VARIABLE output OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_VARIABLE errors)
  if(failed)
    message(FATAL_ERROR "git ${ARGN}: ${errors}")
  endif()
  set(git_output "${output}" PARENT_SCOPE)
endfunction()

function(expect_commit what source_dir given want)
  suite_commit("${source_dir}" "${given}" commit)
  if(commit STREQUAL want)
    message(STATUS "ok: ${what}: ${commit}")
  else()
    message(SEND_ERROR "${what} (${source_dir}, given '${given}'): got '${commit}', want '${want}'")
  endif()
endfunction()

run_git(init --quiet)
run_git(add notes.txt)
run_git(commit --quiet -m "the user's repository")

expect_commit("a copy inside another repository, untracked" ${copy} "" unknown)
run_git(add reduction_suite)
run_git(commit --quiet -m "the suite unpacked and committed")
run_git(rev-parse --short=7 HEAD)
set(users_commit ${git_output})
expect_commit("a copy inside another repository, tracked" ${copy} "" unknown)
expect_commit("a given commit inside another repository" ${copy} "abc1234" abc1234)
expect_commit("the top of a work tree" ${outer} "" ${users_commit})
expect_commit("a given commit at the top of a work tree" ${outer} "abc1234" abc1234)
file(CREATE_LINK ${outer} ${WORK_DIR}/link_to_repository SYMBOLIC)
expect_commit("the top of a work tree through a symlink" ${WORK_DIR}/link_to_repository ""
              ${users_commit})
file(APPEND ${outer}/notes.txt "an edit\n")
expect_commit("the top of a work tree with an edited file" ${outer} "" ${users_commit}-dirty)
expect_commit("a directory in no repository" ${WORK_DIR}/no_repository "" unknown)

execute_process(COMMAND ${BENCH_COMPARE} --version RESULT_VARIABLE failed
                OUTPUT_VARIABLE version ERROR_VARIABLE errors)
string(FIND "${version}" "suite) ${CONFIGURED_COMMIT}\n" at)
if(failed OR at EQUAL -1)
  message(SEND_ERROR "bench_compare --version (exit ${failed}) does not name the configured "
                     "commit '${CONFIGURED_COMMIT}':\n${version}${errors}")
else()
  message(STATUS "ok: bench_compare --version names ${CONFIGURED_COMMIT}")
endif()
