// The rules between forms (spec 1.2): flits from the channel width, clocks
// from the frequencies, header = packet - data, buffers against the flow
// control, rate against interval; plus the defaults of Forms.def.
#pragma once

#include <optional>

#include "compiler/sema/FormValues.h"
#include "compiler/sema/Parameters.h"

namespace ndl::sema {

// Needs: values from readForms. `mainFile` locates missing-form errors.
// Returns nullopt when a required form is missing or a rule fails.
// What the program must give: a whole simulation (every required form and its traffic), or
// only a network to describe (`ndlc info`: the topology; every other form is still checked
// when given); or, for `ndlc check`, a simulation unless the program is a library: files that
// hold definitions and imports only, checked as definitions (check() decides, Check.h).
enum class Requirement { Simulation, Network, SimulationOrLibrary };

std::optional<Parameters> resolve(const FormValues& values, FileId mainFile,
                                  DiagnosticEngine& diags,
                                  Requirement need = Requirement::Simulation);

}  // namespace ndl::sema
