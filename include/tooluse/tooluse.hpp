#pragma once
/// \file tooluse.hpp
/// The umbrella header: the common public API of tooluse.

#include "tooluse/describe.hpp"
#include "tooluse/error.hpp"
#include "tooluse/json.hpp"
#include "tooluse/result.hpp"
#include "tooluse/schema/validator.hpp"
#include "tooluse/tools/call_context.hpp"
#include "tooluse/tools/registry.hpp"
#include "tooluse/tools/tool.hpp"
#include "tooluse/tools/tool_call.hpp"
#include "tooluse/tools/tool_result.hpp"
#include "tooluse/tools/typed.hpp"
