// What `ndlc info` says of a network interface (docs/interfaces.md): each path's stages and
// latency in ns and in clocks of every domain, the plain sum and the edge-aligned figure.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "compiler/sema/Parameters.h"

namespace ndl::driver {

nlohmann::json interfaceJson(const sema::InterfaceSpec& spec);
std::string interfaceText(const sema::InterfaceSpec& spec);

}  // namespace ndl::driver
