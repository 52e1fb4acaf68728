#pragma once

// Where a test finds the source tree and the built CLI. The paths are compiled once, into
// tooluse_test_support (tests/support/test_paths.cpp), and every test target gets this header
// through `-include`, so no test object carries an absolute path of its checkout: ccache then
// shares test objects between clones and worktrees (design/build.md).
namespace tooluse::test_paths {
const char* source_dir();
const char* cli_path();
}  // namespace tooluse::test_paths

#define TOOLUSE_SOURCE_DIR (::tooluse::test_paths::source_dir())
#define TOOLUSE_CLI_PATH (::tooluse::test_paths::cli_path())
