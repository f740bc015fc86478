#include "compiler/codegen/SimulatorModule.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Host.h>

#include "compiler/codegen/Lower.h"
#include "compiler/codegen/Memoize.h"
#include "compiler/codegen/NetworkTables.h"
#include "compiler/codegen/RecursionGuard.h"
#include "compiler/elaborate/Evaluator.h"
#include "compiler/elaborate/Patterns.h"
#include "compiler/support/InternalError.h"
#include "ndl/runtime/sim/generated_abi.h"

namespace ndl::codegen {
namespace {

// A constant array with external linkage under the ABI's name. Integers as one data array:
// a constant per element would cost LLVM memory and time on tables of a large network.
template <class T>
void exportArray(llvm::Module& m, llvm::Type* elem, const char* name, const std::vector<T>& values,
                 bool isFloat = false) {
  llvm::Constant* init = nullptr;
  if (values.empty()) {
    init = llvm::ConstantArray::get(llvm::ArrayType::get(elem, 1),
                                    {llvm::Constant::getNullValue(elem)});
  } else if (isFloat) {
    std::vector<double> v(values.begin(), values.end());
    init = llvm::ConstantDataArray::get(m.getContext(), v);
  } else if (elem->isIntegerTy(32)) {
    std::vector<uint32_t> v;
    for (T x : values) v.push_back(static_cast<uint32_t>(x));
    init = llvm::ConstantDataArray::get(m.getContext(), v);
  } else {
    std::vector<uint64_t> v;
    for (T x : values) v.push_back(static_cast<uint64_t>(x));
    init = llvm::ConstantDataArray::get(m.getContext(), v);
  }
  new llvm::GlobalVariable(m, init->getType(), true, llvm::GlobalValue::ExternalLinkage, init,
                           name);
}

NetworkConstants constantsOf(const elab::Graph& g) {
  NetworkConstants c;
  c.nodes = g.nodeCount;
  c.endpoints = static_cast<int64_t>(g.endpointCount());
  c.oneEndpointEach = g.endpoints.empty();
  c.radices = g.radices;
  int64_t stride = 1;
  for (int64_t r : g.radices) {
    c.strides.push_back(stride);
    stride *= r;
  }
  c.wraps.assign(g.dimNames.size(), 0);
  c.dimUsed.assign(g.dimNames.size(), 0);
  for (const elab::Channel& ch : g.channels) {
    c.dimUsed[ch.dim] = 1;
    if (ch.flags & elab::kWrap) c.wraps[ch.dim] = 1;
  }
  return c;
}

// What the routing, the selection and the predictor compile against: the network, and the
// configuration their builtins read ((vcs), (avoiding), ...).
NetworkConstants configurationConstants(const sema::CheckedProgram& program,
                                        const elab::Network& network,
                                        const CodegenOptions& options) {
  NetworkConstants constants = constantsOf(network.graph);
  constants.asData = options.unspecialized;
  constants.vcs = program.params.virtualChannels;
  constants.injectionVcs = program.params.injectionVirtualChannels;
  constants.avoiding = program.params.deadlockHandling == sema::EnumId::DeadlockHandling_Avoid;
  constants.recoveryTimeout = program.params.recoveryTimeoutNetworkClocks;
  constants.classes = static_cast<int64_t>(network.networkClasses.names.size());
  return constants;
}

}  // namespace

std::unique_ptr<llvm::Module> buildSimulatorModule(llvm::LLVMContext& context,
                                                   const sema::CheckedProgram& program,
                                                   const elab::Network& network,
                                                   const CodegenOptions& options,
                                                   DiagnosticEngine& diags) {
  auto m = std::make_unique<llvm::Module>("ndl.simulator", context);
  m->setTargetTriple(llvm::sys::getProcessTriple());
  llvm::Type* i64 = llvm::Type::getInt64Ty(context);
  llvm::Type* i32 = llvm::Type::getInt32Ty(context);

  SimulatorTables t = makeTables(program, network);
  exportArray(*m, i64, "ndl_params_i64", t.i64);
  exportArray(*m, llvm::Type::getDoubleTy(context), "ndl_params_f64", t.f64, true);
  exportArray(*m, i32, "ndl_signature_start", t.ports.signatureStart);
  exportArray(*m, i32, "ndl_signature_ports", t.ports.signatureRows);
  exportArray(*m, i32, "ndl_node_runs", t.ports.nodeRuns);
  exportArray(*m, i32, "ndl_radices", t.radices);
  exportArray(*m, i32, "ndl_hot_nodes", t.hotNodes);
  exportArray(*m, i32, "ndl_report_pairs", t.reportPairs);
  exportArray(*m, llvm::Type::getDoubleTy(context), "ndl_traffic_classes", t.trafficClasses, true);
  exportArray(*m, i32, "ndl_endpoint_runs", t.endpointRuns);
  exportArray(*m, i32, "ndl_vc_class", t.vcClass);
  exportArray(*m, i32, "ndl_inj_vc_class", t.injVcClass);
  exportArray(*m, i64, "ndl_class_vcs", t.classVcs);
  exportArray(*m, i64, "ndl_header_fields", t.headerFields);
  exportArray(*m, i64, "ndl_wait_breaks", t.waitBreaks);
  exportArray(*m, i64, "ndl_port_states", t.portStates);
  exportArray(*m, i64, "ndl_interface_stages", t.interfaceStages);
  // Whether the program has a predictor, as a constant the core's router step reads (a C++
  // bool): linked into one module, the step's predictive branches fold away without one.
  new llvm::GlobalVariable(*m, llvm::Type::getInt8Ty(context), true,
                           llvm::GlobalValue::ExternalLinkage,
                           llvm::ConstantInt::get(llvm::Type::getInt8Ty(context),
                                                  network.predictorDef ? 1 : 0),
                           "ndl_generated_predicts");
  // Whether the traffic classes differ in priority, alike: without, the allocators' priority
  // tests fold away.
  new llvm::GlobalVariable(*m, llvm::Type::getInt8Ty(context), true,
                           llvm::GlobalValue::ExternalLinkage,
                           llvm::ConstantInt::get(llvm::Type::getInt8Ty(context),
                                                  sema::classPriorities(program.params) ? 1 : 0),
                           "ndl_generated_priorities");
  {
    llvm::IRBuilder<> b(context);
    auto* ptr = llvm::PointerType::get(context, 0);
    std::vector<llvm::Constant*> strs;
    for (const std::string& s : t.str) {
      auto* data = llvm::ConstantDataArray::getString(context, s);
      auto* g = new llvm::GlobalVariable(*m, data->getType(), true,
                                         llvm::GlobalValue::PrivateLinkage, data, "ndl.str");
      strs.push_back(g);
    }
    auto* type = llvm::ArrayType::get(ptr, strs.size());
    new llvm::GlobalVariable(*m, type, true, llvm::GlobalValue::ExternalLinkage,
                             llvm::ConstantArray::get(type, strs), "ndl_params_str");
  }

  // ndl_user_route(current, dest, source, arrived, injected, in-class,
  // blocked-for, header, out): the NDL routing function, its route value
  // stored to out.
  auto* ptr = llvm::PointerType::get(context, 0);
  auto* routeType = llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                            {i64, i64, i64, i64, i64, i64, i64, i64, ptr}, false);
  auto* route = llvm::Function::Create(routeType, llvm::Function::ExternalLinkage,
                                       "ndl_user_route", *m);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", route));
  // Everything read here besides the definitions must also be a structural entry of the
  // tables (NetworkTables.h): `ndlc run` keys its build cache on them.
  if (network.routingDef) {
    NetworkConstants constants = configurationConstants(program, network, options);
    for (const elab::HeaderFieldLayout& f : network.header)
      constants.header.push_back({f.offset, f.bits, f.lo, f.hi});
    llvm::Function* f =
        lowerDefinition(*m, program.defs, *network.routingDef, constants, diags);
    if (!f) return nullptr;
    if (!lowerHeaderInit(*m, program.defs, *network.routingDef, constants, diags)) return nullptr;
    std::vector<llvm::Value*> args;
    for (unsigned k = 0; k < sema::kRoutingParams; ++k) args.push_back(route->getArg(k));
    // The header fields, unpacked from the packet's header word.
    llvm::Value* header = route->getArg(sema::kRoutingParams);
    for (const NetworkConstants::Field& field : constants.header) {
      const uint64_t mask = field.bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << field.bits) - 1;
      args.push_back(b.CreateAdd(
          b.CreateAnd(b.CreateLShr(header, field.offset), b.getInt64(mask)),
          b.getInt64(static_cast<uint64_t>(field.lo))));
    }
    // The caller's array is only as aligned as its int64_t elements.
    b.CreateAlignedStore(b.CreateCall(f, args), route->getArg(sema::kRoutingParams + 1),
                         llvm::Align(8));
    b.CreateRetVoid();
    // Knowing the routing is pure NDL and the network's size, the
    // specialized build tables its searches (after the call above: the call
    // graph is walked from the module's entry points); the unspecialized one
    // calls the routing as a plain function, as a runtime that did not
    // compile it must.
    if (!options.unspecialized) memoizeSearches(*m, *f, network.graph.nodeCount);
  } else {
    internalError("a simulator is built only for a network with a routing");
  }
  // ndl_user_select(current, dest, source, arrived, injected, in-class,
  // blocked-for, out-port, out-class, credits, port-free-vcs, port-credits):
  // the score of a free candidate under a selection written in NDL; 0
  // without one (never called then).
  {
    auto* selectType = llvm::FunctionType::get(
        i64, std::vector<llvm::Type*>(sema::kSelectParams, i64), false);
    auto* select = llvm::Function::Create(selectType, llvm::Function::ExternalLinkage,
                                          "ndl_user_select", *m);
    llvm::IRBuilder<> sb(llvm::BasicBlock::Create(context, "entry", select));
    if (network.selectionDef) {
      NetworkConstants constants = configurationConstants(program, network, options);
      llvm::Function* f =
          lowerDefinition(*m, program.defs, *network.selectionDef, constants, diags);
      if (!f) return nullptr;
      std::vector<llvm::Value*> args;
      for (unsigned k = 0; k < sema::kSelectParams; ++k) args.push_back(select->getArg(k));
      sb.CreateRet(sb.CreateCall(f, args));
    } else {
      sb.CreateRet(sb.getInt64(0));
    }
  }
  // ndl_user_predict(the routing's parameters) and ndl_user_on_forward(..., out-port): the
  // predictor (docs/prediction.md); without one, no prediction and no update (never called).
  {
    auto* predictType =
        llvm::FunctionType::get(i64, std::vector<llvm::Type*>(sema::kRoutingParams, i64), false);
    auto* predict = llvm::Function::Create(predictType, llvm::Function::ExternalLinkage,
                                           "ndl_user_predict", *m);
    llvm::IRBuilder<> pb(llvm::BasicBlock::Create(context, "entry", predict));
    if (network.predictorDef) {
      NetworkConstants constants = configurationConstants(program, network, options);
      llvm::Function* f =
          lowerDefinition(*m, program.defs, *network.predictorDef, constants, diags);
      if (!f) return nullptr;
      if (!lowerOnForward(*m, program.defs, *network.predictorDef, constants, diags))
        return nullptr;
      std::vector<llvm::Value*> args;
      for (unsigned k = 0; k < sema::kRoutingParams; ++k) args.push_back(predict->getArg(k));
      args.push_back(pb.getInt64(static_cast<uint64_t>(-1)));  // (out-port): not yet known
      pb.CreateRet(pb.CreateCall(f, args));
    } else {
      pb.CreateRet(pb.getInt64(static_cast<uint64_t>(-1)));
      auto* forwardType = llvm::FunctionType::get(
          llvm::Type::getVoidTy(context), std::vector<llvm::Type*>(sema::kPredictParams, i64),
          false);
      auto* forward = llvm::Function::Create(forwardType, llvm::Function::ExternalLinkage,
                                             "ndl_user_on_forward", *m);
      llvm::IRBuilder<> fb(llvm::BasicBlock::Create(context, "entry", forward));
      fb.CreateRetVoid();
    }
  }
  // ndl_user_pattern(which, source, random): the destination under the program's pattern
  // `which` written in NDL (elab::userPatterns' order); -1 without (never called then).
  {
    auto* patternType = llvm::FunctionType::get(i64, {i64, i64, i64}, false);
    auto* dispatch = llvm::Function::Create(patternType, llvm::Function::ExternalLinkage,
                                            "ndl_user_pattern", *m);
    llvm::IRBuilder<> db(llvm::BasicBlock::Create(context, "entry", dispatch));
    const std::vector<uint32_t> patterns = elab::userPatterns(program.params);
    auto* none = llvm::BasicBlock::Create(context, "none", dispatch);
    llvm::IRBuilder<>(none).CreateRet(db.getInt64(static_cast<uint64_t>(-1)));
    llvm::SwitchInst* which = db.CreateSwitch(dispatch->getArg(0), none,
                                              static_cast<unsigned>(patterns.size()));
    if (!patterns.empty()) {
      const NetworkConstants constants = configurationConstants(program, network, options);
      for (size_t k = 0; k < patterns.size(); ++k) {
        llvm::Function* f = lowerPattern(*m, program.defs, patterns[k], constants, diags);
        if (!f) return nullptr;
        auto* block = llvm::BasicBlock::Create(context, "pattern", dispatch);
        llvm::IRBuilder<> kb(block);
        kb.CreateRet(kb.CreateCall(f, {dispatch->getArg(1), dispatch->getArg(2)}));
        which->addCase(kb.getInt64(k), block);
      }
    }
  }
  // Tail calls become jumps in the -O2 and -O3 pipelines (TailCallElimPass).
  guardRecursion(*m, elab::kMaxCallDepth, elab::kMaxSimulatorSteps,
                 options.optimize && options.optLevel >= 2);
  std::string err;
  llvm::raw_string_ostream os(err);
  if (llvm::verifyModule(*m, &os))
    internalError("LLVM verifier rejected the simulator module: " + os.str());
  return m;
}

}  // namespace ndl::codegen
