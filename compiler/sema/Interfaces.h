// The node side in exact time (docs/interfaces.md): (ClockDomain ...), (Interface ...) and
// the host costs, checked against each other and resolved to picoseconds.
#pragma once

#include "compiler/sema/FormValues.h"
#include "compiler/sema/Parameters.h"
#include "ndl/runtime/app/interface_timing.h"

namespace ndl::sema {

// Reads the forms into p.interface (left empty without an Interface form) and reports every
// error at its form; returns false when one was reported. Needs p.networkHz. `simulation`:
// the program is to run, so the interface needs a pattern program to carry.
bool resolveInterface(const FormValues& v, Parameters& p, DiagnosticEngine& diags,
                      bool simulation);

// The runtime's view of a resolved interface: the same arithmetic times a path in `ndlc
// info` and in the simulators.
rt::InterfaceTiming interfaceTiming(const InterfaceSpec& spec);

}  // namespace ndl::sema
