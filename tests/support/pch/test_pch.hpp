#pragma once
// The tests' precompiled header (TOOLUSE_TEST_PCH in tests/CMakeLists.txt): what nearly every
// test file reads, parsed once per build instead of once per batch. Only headers from outside
// the project's modules, and core's tooluse/json.hpp, which everything uses, so that editing a
// module does not rebuild it. A test file still includes what it uses; this only makes it cheap.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse_test_paths.hpp"
