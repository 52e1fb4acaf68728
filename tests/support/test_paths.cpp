#include "tooluse_test_paths.hpp"

namespace tooluse::test_paths {
const char* source_dir() { return TOOLUSE_SOURCE_DIR_LITERAL; }
const char* cli_path() { return TOOLUSE_CLI_PATH_LITERAL; }
}  // namespace tooluse::test_paths
