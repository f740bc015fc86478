// The values of (Sweep Name v1 v2 ...) checked as if each were written (Name v): `ndlc sweep`
// runs every value with `--set Name=v`, so a value that would be refused there (an unknown
// topology or routing, an interval under one clock, a rule between forms it breaks) is refused
// by `ndlc check` already, at the value.
#pragma once

#include "compiler/sema/Definitions.h"
#include "compiler/sema/FormValues.h"
#include "compiler/sema/Rules.h"
#include "compiler/support/Diagnostics.h"

namespace ndl::sema {

// Needs: the values of readForms (whose Sweep values passed their form's own checks) and the
// program's definitions. Reports what binding each swept name gets (bindNetwork: a topology
// and its arguments, a routing, a selection) and what the rules between forms (resolve) get at
// each point of the grid `ndlc sweep` runs (one value of each Sweep in place of its form),
// except what the program as written gets too (reported already). A diagnostic away from the
// point's values gets a note at each value it needs.
void checkSweepValues(const FormValues& values, FileId mainFile, const DefinitionTable& defs,
                      DiagnosticEngine& diags, Requirement need);

}  // namespace ndl::sema
