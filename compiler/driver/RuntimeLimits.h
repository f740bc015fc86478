// The limits of a simulator's parameters (runtime/sim/param_rules.h, router_limits.h) checked at
// the forms that set them: a program `ndlc check` accepts is one its simulator runs, and a
// value beyond a limit is reported at its place in the source, not when the simulator starts.
#pragma once

#include "compiler/driver/Pipeline.h"
#include "compiler/support/Diagnostics.h"

namespace ndl::driver {

// Needs: a checked program and its elaborated network (ReportPairs name its nodes).
void checkRuntimeLimits(const FrontEndResult& result, DiagnosticEngine& diags);

}  // namespace ndl::driver
