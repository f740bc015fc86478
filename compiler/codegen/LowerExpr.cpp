#include <fmt/format.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <map>

#include "compiler/codegen/EvalFailure.h"
#include "compiler/codegen/Lower.h"
#include "compiler/elaborate/Distances.h"
#include "compiler/elaborate/Evaluator.h"
#include "compiler/support/InternalError.h"
#include "compiler/support/SourceManager.h"

namespace ndl::codegen {
namespace {

using sema::Expr;
using sema::Op;

// Thrown at an expression the code generator does not compile; becomes
// one diagnostic.
struct NotCompilable {
  SourceRange range;
  std::string what;
  std::string hint;  // empty: the general one
};

class Lowerer {
 public:
  Lowerer(llvm::Module& m, const sema::DefinitionTable& defs, const NetworkConstants& net,
          const SourceManager& sources)
      : m_(m), ctx_(m.getContext()), b_(ctx_), defs_(defs), net_(net), sources_(sources) {
    i64_ = llvm::Type::getInt64Ty(ctx_);
    // A struct, not a vector: its calling convention does not depend on the
    // CPU features of caller and callee (the core keeps baseline x86-64
    // ones, the routing gets the host's; at -O0 they call each other).
    route_ = llvm::StructType::get(
        ctx_, std::vector<llvm::Type*>(routeWords(net.header.size()), i64_));
    radices_ = table("ndl.radices", net.radices);
    strides_ = table("ndl.strides", net.strides);
    wraps_ = table("ndl.wraps", net.wraps);
    dimUsed_ = table("ndl.dim_used", net.dimUsed);
    nodes_ = scalar("ndl.nodes", net.nodes);
    endpoints_ = scalar("ndl.endpoints", net.endpoints);
    dims_ = scalar("ndl.dims", static_cast<int64_t>(net.radices.size()));
    // Every radix a power of two (so every stride too): coordinates are a
    // shift and a mask, exact floor division and modulo for any sign.
    pow2_ = !net.asData && !net.radices.empty();
    for (int64_t r : net.radices) pow2_ = pow2_ && r > 0 && (r & (r - 1)) == 0;
    if (pow2_) {
      for (int64_t st : net.strides) strideShifts_.push_back(__builtin_ctzll(st));
      for (int64_t r : net.radices) radixMasks_.push_back(r - 1);
      strideShiftTable_ = table("ndl.stride_shifts", strideShifts_);
      radixMaskTable_ = table("ndl.radix_masks", radixMasks_);
    }
  }

  llvm::Function* function(uint32_t index) {
    auto it = functions_.find(index);
    if (it != functions_.end()) return it->second;
    const sema::Definition& d = defs_.defs[index];
    std::vector<llvm::Type*> params;
    for (const sema::Param& p : d.params) params.push_back(typeOf(p.type));
    auto* type = llvm::FunctionType::get(typeOf(d.result), params, false);
    auto* f = llvm::Function::Create(type, llvm::Function::InternalLinkage,
                                     "ndl." + d.name, m_);
    functions_[index] = f;
    if (!d.hasRoute && d.kind == sema::DefKind::Routing)
      throw NotCompilable{d.nameRange, fmt::format("routing '{}' gives only hop counts (Hops ...), "
                                                   "not the port to take",
                                                   d.name)};
    pending_.push_back(index);
    return f;
  }

  void lowerPending() {
    while (!pending_.empty()) {
      uint32_t index = pending_.back();
      pending_.pop_back();
      body(index);
    }
  }

 private:
  llvm::GlobalVariable* table(const std::string& name, const std::vector<int64_t>& values) {
    auto* type = llvm::ArrayType::get(i64_, values.size());
    std::vector<llvm::Constant*> items;
    for (int64_t v : values) items.push_back(llvm::ConstantInt::get(i64_, v, true));
    return global(type, llvm::ConstantArray::get(type, items), name);
  }
  // A network value: a constant, or (asData) a variable loaded where it is used.
  llvm::Value* scalar(const std::string& name, int64_t value) {
    llvm::Constant* c = llvm::ConstantInt::get(i64_, value, true);
    return net_.asData ? static_cast<llvm::Value*>(global(i64_, c, name)) : c;
  }
  llvm::GlobalVariable* global(llvm::Type* type, llvm::Constant* init, const std::string& name) {
    // External and writable, nothing tells the optimizer the values.
    return net_.asData ? new llvm::GlobalVariable(m_, type, false, llvm::GlobalValue::ExternalLinkage,
                                                  init, name)
                       : new llvm::GlobalVariable(m_, type, true, llvm::GlobalValue::InternalLinkage,
                                                  init, name);
  }
  llvm::Value* networkValue(llvm::Value* v) {
    return net_.asData ? b_.CreateLoad(i64_, v) : v;
  }

  void body(uint32_t index) {
    const sema::Definition& d = defs_.defs[index];
    llvm::Function* f = functions_[index];
    auto* entry = llvm::BasicBlock::Create(ctx_, "entry", f);
    b_.SetInsertPoint(entry);
    fn_ = f;
    slots_.assign(d.frameSize, nullptr);
    routeSlots_.assign(d.frameSize, nullptr);
    for (uint32_t k = 0; k < d.params.size(); ++k)
      b_.CreateStore(f->getArg(k), slot(k, d.params[k].type));
    b_.CreateRet(value(d.body));
    std::string err;
    llvm::raw_string_ostream os(err);
    if (llvm::verifyFunction(*f, &os))
      internalError(fmt::format("LLVM verifier rejected the lowering of '{}': {}", d.name, os.str()));
  }

  llvm::Type* typeOf(sema::Type t) const { return t == sema::Type::Route ? route_ : i64_; }

  // A frame slot's storage for values of type t: a slot holds an integer, or
  // a route in scopes where its variable is a route.
  llvm::AllocaInst*& slotRef(uint32_t i, sema::Type t) {
    return t == sema::Type::Route ? routeSlots_[i] : slots_[i];
  }
  llvm::AllocaInst* slot(uint32_t i, sema::Type t) {
    llvm::AllocaInst*& a = slotRef(i, t);
    if (!a) {
      llvm::BasicBlock& entry = fn_->getEntryBlock();
      llvm::IRBuilder<> eb(&entry, entry.begin());
      a = eb.CreateAlloca(typeOf(t), nullptr, "slot");
    }
    return a;
  }

  llvm::Value* constant(int64_t v) { return llvm::ConstantInt::get(i64_, v, true); }
  llvm::Value* boolean(llvm::Value* i1) { return b_.CreateZExt(i1, i64_); }
  llvm::Value* truth(llvm::Value* v) { return b_.CreateICmpNE(v, constant(0)); }

  // A value the compile-time evaluator refuses (a division by zero, a dimension the network
  // lacks, an overflow, ...) must not become some other value in the simulator: when `bad`
  // holds, the generated code records the first such place of the call in ndl_eval_failure
  // (generated_abi.h) and goes on with a harmless value, and the runtime stops the run with
  // the message once the call returns.
  void failIf(llvm::Value* bad, const Expr& e, std::string_view what) { failIf(bad, e.range, what); }
  void failIf(llvm::Value* bad, const SourceRange& r, std::string_view what) {
    if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(bad); c && c->isZero()) return;
    const std::string text =
        r.valid() ? fmt::format("{} ({}:{}:{})", what, sources_.name(r.file), r.line, r.col)
                  : std::string(what);
    llvm::Constant*& message = messages_[text];
    if (!message) message = b_.CreateGlobalStringPtr(text, "ndl.eval.failure");
    auto* fail = llvm::BasicBlock::Create(ctx_, "eval.fail", fn_);
    auto* ok = llvm::BasicBlock::Create(ctx_, "eval.ok", fn_);
    b_.CreateCondBr(bad, fail, ok, llvm::MDBuilder(ctx_).createBranchWeights(1, 1 << 20));
    b_.SetInsertPoint(fail);
    recordFailure(b_, m_, message);
    b_.CreateBr(ok);
    b_.SetInsertPoint(ok);
  }
  // a op b on 64-bit integers, an overflow refused as the evaluator refuses it.
  llvm::Value* checked(llvm::Intrinsic::ID op, llvm::Value* a, llvm::Value* c, const Expr& e) {
    llvm::Value* r =
        b_.CreateCall(llvm::Intrinsic::getDeclaration(&m_, op, {i64_}), {a, c});
    failIf(b_.CreateExtractValue(r, 1), e, "integer overflow");
    return b_.CreateExtractValue(r, 0);
  }
  // d, a dimension of the network, as (radix d), (coord n d) and (neighbor n d x) need it.
  void checkDim(llvm::Value* d, const Expr& e) {
    failIf(b_.CreateICmpUGE(d, networkValue(dims_)), e,
           fmt::format("a dimension the network does not have (it has {}; they are numbered from "
                       "0)",
                       net_.radices.size()));
  }
  void checkNode(llvm::Value* n, const Expr& e) {
    failIf(b_.CreateICmpUGE(n, nodes()), e, "a node the network does not have");
  }
  void checkEndpoint(llvm::Value* x, const Expr& e) {
    failIf(b_.CreateICmpUGE(x, endpoints()), e, "an endpoint the network does not have");
  }
  // An endpoint's router, a router's first endpoint and its endpoint count, from the
  // simulator's endpoint layout (generated_entry.cpp); folded where every router has one.
  llvm::Value* endpointQuery(const char* name, llvm::Value* x) {
    llvm::FunctionCallee f =
        m_.getOrInsertFunction(name, llvm::FunctionType::get(i64_, {i64_}, false));
    return b_.CreateCall(f, {x});
  }
  llvm::Value* endpointRouter(llvm::Value* x) {
    return net_.oneEndpointEach ? x : endpointQuery("ndl_endpoint_router", x);
  }
  llvm::Value* firstEndpoint(llvm::Value* r) {
    return net_.oneEndpointEach ? r : endpointQuery("ndl_router_first_endpoint", r);
  }
  llvm::Value* routerEndpoints(llvm::Value* r) {
    return net_.oneEndpointEach ? constant(1) : endpointQuery("ndl_router_endpoints", r);
  }

  // Floor division and modulo, as the compile-time evaluator computes them.
  llvm::Value* floorMod(llvm::Value* a, llvm::Value* n) {
    llvm::Value* r = b_.CreateSRem(a, n);
    llvm::Value* adjust =
        b_.CreateAnd(b_.CreateICmpNE(r, constant(0)),
                     b_.CreateICmpNE(b_.CreateICmpSLT(r, constant(0)), b_.CreateICmpSLT(n, constant(0))));
    return b_.CreateSelect(adjust, b_.CreateAdd(r, n), r);
  }
  llvm::Value* floorDiv(llvm::Value* a, llvm::Value* n) {
    llvm::Value* q = b_.CreateSDiv(a, n);
    llvm::Value* r = b_.CreateSRem(a, n);
    llvm::Value* adjust =
        b_.CreateAnd(b_.CreateICmpNE(r, constant(0)),
                     b_.CreateICmpNE(b_.CreateICmpSLT(r, constant(0)), b_.CreateICmpSLT(n, constant(0))));
    return b_.CreateSelect(adjust, b_.CreateSub(q, constant(1)), q);
  }

  // table[d] with 0 outside the table (like the evaluator's wraps/has-dim).
  // A table of one repeated value (a k×k torus's radices) is that constant.
  llvm::Value* lookup(llvm::GlobalVariable* t, const std::vector<int64_t>& values,
                      llvm::Value* d) {
    if (values.empty()) return constant(0);
    llvm::Value* inRange = b_.CreateICmpULT(d, constant(static_cast<int64_t>(values.size())));
    bool uniform = std::all_of(values.begin(), values.end(),
                               [&](int64_t v) { return v == values[0]; });
    if (uniform && !net_.asData) return b_.CreateSelect(inRange, constant(values[0]), constant(0));
    llvm::Value* safe = b_.CreateSelect(inRange, d, constant(0));
    llvm::Value* p = b_.CreateInBoundsGEP(t->getValueType(), t, {constant(0), safe});
    return b_.CreateSelect(inRange, b_.CreateLoad(i64_, p), constant(0));
  }

  // A dimension out of range has radix and stride 0 in the tables: treated
  // as 1, its coordinate is 0 (with shifts: shift 0, mask 0, the same 0).
  llvm::Value* coordOf(llvm::Value* n, llvm::Value* d) {
    if (pow2_) {
      return b_.CreateAnd(b_.CreateAShr(n, lookup(strideShiftTable_, strideShifts_, d)),
                          lookup(radixMaskTable_, radixMasks_, d));
    }
    llvm::Value* stride = lookup(strides_, net_.strides, d);
    stride = b_.CreateSelect(b_.CreateICmpEQ(stride, constant(0)), constant(1), stride);
    return floorMod(floorDiv(n, stride), radixOrOne(d));
  }

  // Coordinate c + delta wrapped to dimension d's radix (0 out of range).
  llvm::Value* wrapCoord(llvm::Value* x, llvm::Value* d) {
    if (pow2_) return b_.CreateAnd(x, lookup(radixMaskTable_, radixMasks_, d));
    return floorMod(x, radixOrOne(d));
  }

  llvm::Value* radixOrOne(llvm::Value* d) {
    llvm::Value* radix = lookup(radices_, net_.radices, d);
    return b_.CreateSelect(b_.CreateICmpEQ(radix, constant(0)), constant(1), radix);
  }

  // (via port class) / (via port): tier 0 holds the candidate's bit(s).
  llvm::Value* routeTo(const Expr& e) {
    const int64_t nc = net_.classes;
    const int64_t codes = 2 * static_cast<int64_t>(net_.wraps.size());
    if (codes * nc > 63)
      unsupported(e, fmt::format("routes over {} ports x {} VC classes exceed the simulator's "
                                 "63 candidate bits",
                                 codes, nc));
    llvm::Value* code = value(e.kids[0]);
    llvm::Value* base = b_.CreateMul(code, constant(nc));
    llvm::Value* cls = e.kids.size() == 2 ? value(e.kids[1]) : nullptr;
    if (cls)
      failIf(b_.CreateICmpUGE(cls, constant(nc)), e,
             fmt::format("a VC class the routing does not have (it has {} network class{})", nc,
                         nc == 1 ? "" : "es"));
    llvm::Value* bits = cls ? b_.CreateShl(constant(1), b_.CreateAnd(cls, constant(63)))
                            : constant(nc >= 63 ? INT64_MAX : (int64_t{1} << nc) - 1);
    llvm::Value* inRange = b_.CreateAnd(b_.CreateICmpSGE(code, constant(0)),
                                        b_.CreateICmpSLT(code, constant(codes)));
    llvm::Value* safe = b_.CreateSelect(inRange, base, constant(0));
    llvm::Value* mask = b_.CreateSelect(inRange, b_.CreateShl(bits, safe),
                                        constant(INT64_MIN));  // bit 63: no such port
    return b_.CreateInsertValue(llvm::Constant::getNullValue(route_), mask, 0);
  }

  // (prefer a b): a's tiers up to its last non-empty one, then b's; at most
  // four tiers, as the compile-time evaluator refuses more. Header writes move
  // with their tiers.
  llvm::Value* prefer(llvm::Value* a, llvm::Value* c, const Expr& e) {
    // Tiers of a route up to its last non-empty one.
    auto tiers = [&](llvm::Value* r) {
      llvm::Value* n = constant(0);
      for (unsigned t = 0; t < 4; ++t) {
        llvm::Value* nonEmpty = b_.CreateICmpNE(b_.CreateExtractValue(r, t), constant(0));
        n = b_.CreateSelect(nonEmpty, constant(t + 1), n);
      }
      return n;
    };
    llvm::Value* used = tiers(a);
    llvm::Value* more = tiers(c);
    failIf(b_.CreateAnd(b_.CreateICmpNE(more, constant(0)),
                        b_.CreateICmpSGT(b_.CreateAdd(used, more), constant(4))),
           e, "a route of more than 4 priority tiers (the simulator keeps at most 4)");
    llvm::Value* out = mergeWrites(a, c, c);
    // Tier t is a's when t < used, else c's tier t - used; so are the write
    // masks of each field (index(t) names tier t's word).
    auto shuffle = [&](auto index) {
      for (unsigned t = 0; t < 4; ++t) {
        llvm::Value* pick = b_.CreateExtractValue(a, index(t));
        for (unsigned u = 0; u <= t; ++u)
          pick = b_.CreateSelect(b_.CreateICmpEQ(used, constant(u)),
                                 b_.CreateExtractValue(c, index(t - u)), pick);
        out = b_.CreateInsertValue(out, pick, index(t));
      }
    };
    shuffle([](unsigned t) { return t; });
    for (unsigned f = 0; f < net_.header.size(); ++f)
      shuffle([f](unsigned t) { return routeFieldMask(f, t); });
    return out;
  }

  // The error word and header values of a route joining a and c (its masks
  // are the caller's): an error of either, else a field written with two
  // different values; each field's value from whichever writes it.
  llvm::Value* mergeWrites(llvm::Value* a, llvm::Value* c, llvm::Value* into) {
    llvm::Value* err = b_.CreateExtractValue(a, kRouteError);
    err = b_.CreateSelect(b_.CreateICmpNE(err, constant(0)), err,
                          b_.CreateExtractValue(c, kRouteError));
    for (unsigned f = 0; f < net_.header.size(); ++f) {
      llvm::Value* wa = constant(0);
      llvm::Value* wc = constant(0);
      for (unsigned t = 0; t < 4; ++t) {
        wa = b_.CreateOr(wa, b_.CreateExtractValue(a, routeFieldMask(f, t)));
        wc = b_.CreateOr(wc, b_.CreateExtractValue(c, routeFieldMask(f, t)));
      }
      llvm::Value* va = b_.CreateExtractValue(a, routeFieldValue(f));
      llvm::Value* vc = b_.CreateExtractValue(c, routeFieldValue(f));
      llvm::Value* aWrites = b_.CreateICmpNE(wa, constant(0));
      llvm::Value* clash = b_.CreateAnd(b_.CreateAnd(aWrites, b_.CreateICmpNE(wc, constant(0))),
                                        b_.CreateICmpNE(va, vc));
      err = b_.CreateSelect(b_.CreateAnd(clash, b_.CreateICmpEQ(err, constant(0))),
                            constant(kHeaderTwoValues << 8 | f), err);
      into = b_.CreateInsertValue(into, b_.CreateSelect(aWrites, va, vc), routeFieldValue(f));
    }
    return b_.CreateInsertValue(into, err, kRouteError);
  }

  // (set field value route): every candidate of the route writes the field.
  llvm::Value* setField(const Expr& e) {
    const unsigned f = static_cast<unsigned>(e.i);
    const NetworkConstants::Field& field = net_.header.at(f);
    llvm::Value* x = value(e.kids[0]);
    llvm::Value* r = value(e.kids[1]);
    llvm::Value* packed = pack(field, x);
    llvm::Value* err = b_.CreateExtractValue(r, kRouteError);
    llvm::Value* wrote = constant(0);
    for (unsigned t = 0; t < 4; ++t) wrote = b_.CreateOr(wrote, b_.CreateExtractValue(r, routeFieldMask(f, t)));
    llvm::Value* clash = b_.CreateAnd(b_.CreateICmpNE(wrote, constant(0)),
                                      b_.CreateICmpNE(b_.CreateExtractValue(r, routeFieldValue(f)), packed));
    llvm::Value* outside = b_.CreateOr(b_.CreateICmpSLT(x, constant(field.lo)),
                                       b_.CreateICmpSGT(x, constant(field.hi)));
    llvm::Value* ok = b_.CreateICmpEQ(err, constant(0));
    err = b_.CreateSelect(b_.CreateAnd(ok, outside), constant(kHeaderOutOfRange << 8 | f), err);
    ok = b_.CreateICmpEQ(err, constant(0));
    err = b_.CreateSelect(b_.CreateAnd(ok, clash), constant(kHeaderTwoValues << 8 | f), err);
    r = b_.CreateInsertValue(r, err, kRouteError);
    for (unsigned t = 0; t < 4; ++t) r = b_.CreateInsertValue(r, b_.CreateExtractValue(r, t), routeFieldMask(f, t));
    return b_.CreateInsertValue(r, packed, routeFieldValue(f));
  }

  llvm::Value* pack(const NetworkConstants::Field& f, llvm::Value* x) {
    const uint64_t mask = f.bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << f.bits) - 1;
    return b_.CreateShl(b_.CreateAnd(b_.CreateSub(x, constant(f.lo)),
                                     constant(static_cast<int64_t>(mask))),
                        constant(f.offset));
  }

  // A draw uniform in [0, n): the packet's stream advanced by a SplitMix64
  // step, scaled by a 64x64 -> 128-bit multiply (no division).
  llvm::Value* randomBelow(llvm::Value* n, const Expr& e) {
    llvm::Value* state = b_.CreateAdd(b_.CreateLoad(i64_, rng()), constant(static_cast<int64_t>(0x9E3779B97F4A7C15ULL)));
    b_.CreateStore(state, rng());
    llvm::Value* z = state;
    z = b_.CreateMul(b_.CreateXor(z, b_.CreateLShr(z, constant(30))), constant(static_cast<int64_t>(0xBF58476D1CE4E5B9ULL)));
    z = b_.CreateMul(b_.CreateXor(z, b_.CreateLShr(z, constant(27))), constant(static_cast<int64_t>(0x94D049BB133111EBULL)));
    z = b_.CreateXor(z, b_.CreateLShr(z, constant(31)));
    // (random n) with n <= 0 has no value: a failure, drawn as 0.
    failIf(b_.CreateICmpSLE(n, constant(0)), e, "(random n) draws from an empty range");
    n = b_.CreateSelect(b_.CreateICmpSLE(n, constant(0)), constant(0), n);
    llvm::Type* i128 = llvm::Type::getInt128Ty(ctx_);
    llvm::Value* wide = b_.CreateMul(b_.CreateZExt(z, i128), b_.CreateZExt(n, i128));
    return b_.CreateTrunc(b_.CreateLShr(wide, llvm::ConstantInt::get(i128, 64)), i64_);
  }
  llvm::GlobalVariable* rng() {
    if (!rng_)
      rng_ = new llvm::GlobalVariable(m_, i64_, false, llvm::GlobalValue::InternalLinkage,
                                      llvm::ConstantInt::get(i64_, 0), "ndl.rng");
    return rng_;
  }
  llvm::Value* nodes() { return networkValue(nodes_); }
  llvm::Value* endpoints() { return networkValue(endpoints_); }

 public:
  // i64 ndl_user_header_init(i64 source, i64 dest, i64 random): the packed header.
  // A predictor's OnForward block as void ndl_user_on_forward(the predictor's parameters): its
  // pushes, in order.
  void onForward(uint32_t index) {
    const sema::Definition& d = defs_.defs[index];
    auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx_),
                                         std::vector<llvm::Type*>(sema::kPredictParams, i64_),
                                         false);
    llvm::Function* f = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                               "ndl_user_on_forward", m_);
    b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", f));
    fn_ = f;
    slots_.assign(std::max<size_t>(d.frameSize, sema::kPredictParams), nullptr);
    routeSlots_.assign(slots_.size(), nullptr);
    for (uint32_t k = 0; k < sema::kPredictParams; ++k)
      b_.CreateStore(f->getArg(k), slot(k, d.params[k].type));
    if (d.onForward)
      for (const Expr& push : d.onForward->kids) value(push);
    b_.CreateRetVoid();
    std::string msg;
    llvm::raw_string_ostream os(msg);
    if (llvm::verifyFunction(*f, &os))
      internalError("LLVM verifier rejected the OnForward block: " + os.str());
  }

  // A pattern's body as i64 (i64 source, i64 random): the destination, its draws seeded by
  // `random` as a header's initial values are.
  llvm::Function* pattern(uint32_t index) {
    const sema::Definition& d = defs_.defs[index];
    auto* type = llvm::FunctionType::get(i64_, {i64_, i64_}, false);
    llvm::Function* f = llvm::Function::Create(type, llvm::Function::InternalLinkage,
                                               "ndl.pattern." + d.name, m_);
    b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", f));
    fn_ = f;
    slots_.assign(std::max<size_t>(d.frameSize, sema::kPatternParams), nullptr);
    routeSlots_.assign(slots_.size(), nullptr);
    b_.CreateStore(f->getArg(0), slot(0, d.params[0].type));
    b_.CreateStore(f->getArg(1), rng());
    b_.CreateRet(value(d.body));
    std::string msg;
    llvm::raw_string_ostream os(msg);
    if (llvm::verifyFunction(*f, &os))
      internalError("LLVM verifier rejected the pattern: " + os.str());
    return f;
  }

  void headerInit(uint32_t index) {
    const sema::Definition& d = defs_.defs[index];
    auto* type = llvm::FunctionType::get(i64_, {i64_, i64_, i64_}, false);
    llvm::Function* f = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                               "ndl_user_header_init", m_);
    b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", f));
    fn_ = f;
    slots_.assign(d.frameSize, nullptr);
    routeSlots_.assign(d.frameSize, nullptr);
    // The routing's frame as at injection: current = source, no arrival.
    llvm::Value* params[sema::kRoutingParams] = {f->getArg(0), f->getArg(1), f->getArg(0),
                                                 constant(-1), constant(1), constant(0),
                                                 constant(0)};
    for (uint32_t k = 0; k < sema::kRoutingParams; ++k)
      b_.CreateStore(params[k], slot(k, d.params[k].type));
    b_.CreateStore(f->getArg(2), rng());
    llvm::Value* header = constant(0);
    for (unsigned i = 0; i < d.headerFields.size(); ++i) {
      const NetworkConstants::Field& field = net_.header.at(i);
      const sema::HeaderFieldDecl& decl = d.headerFields[i];
      llvm::Value* x = decl.init ? value(*decl.init)
                       : decl.type == sema::Type::Node ? f->getArg(0)
                                                       : constant(field.lo);
      // Placed at the declaration, as the checker's evaluator places it. A default (the
      // source, or lo) is in range.
      if (decl.init)
        failIf(b_.CreateOr(b_.CreateICmpSLT(x, constant(field.lo)),
                           b_.CreateICmpSGT(x, constant(field.hi))),
               decl.form,
               fmt::format("the initial value of header field '{}' is outside its range {}..{}",
                           decl.name, field.lo, field.hi));
      b_.CreateStore(x, slot(sema::kRoutingParams + i, decl.type));
      header = b_.CreateOr(header, pack(field, x));
    }
    b_.CreateRet(header);
    std::string msg;
    llvm::raw_string_ostream os(msg);
    if (llvm::verifyFunction(*f, &os))
      internalError("LLVM verifier rejected the header initialization: " + os.str());
  }

 private:

  [[noreturn]] void unsupported(const Expr& e, std::string_view what, std::string_view hint = {}) {
    throw NotCompilable{e.range, std::string(what), std::string(hint)};
  }

  llvm::Value* value(const Expr& e) {
    if (sema::isRealLike(e.type))
      unsupported(e, "real numbers and quantities are evaluated at compile time only");
    auto v = [&](size_t k) { return value(e.kids[k]); };
    // Both operands, left first: diagnostics follow the source order.
    auto two = [&]() {
      llvm::Value* a = v(0);
      llvm::Value* c = v(1);
      return std::pair{a, c};
    };
    switch (e.op) {
      case Op::ConstInt:
      case Op::ConstBool: return constant(e.i);
      case Op::Var: return b_.CreateLoad(typeOf(e.type), slot(static_cast<uint32_t>(e.i), e.type));
      case Op::Let:
        b_.CreateStore(v(0), slot(static_cast<uint32_t>(e.i), e.kids[0].type));
        return v(1);
      case Op::If: {
        llvm::Value* c = truth(v(0));
        auto* thenB = llvm::BasicBlock::Create(ctx_, "then", fn_);
        auto* elseB = llvm::BasicBlock::Create(ctx_, "else", fn_);
        auto* join = llvm::BasicBlock::Create(ctx_, "join", fn_);
        b_.CreateCondBr(c, thenB, elseB);
        b_.SetInsertPoint(thenB);
        llvm::Value* a = v(1);
        thenB = b_.GetInsertBlock();
        b_.CreateBr(join);
        b_.SetInsertPoint(elseB);
        llvm::Value* z = v(2);
        elseB = b_.GetInsertBlock();
        b_.CreateBr(join);
        b_.SetInsertPoint(join);
        llvm::PHINode* phi = b_.CreatePHI(typeOf(e.type), 2);
        phi->addIncoming(a, thenB);
        phi->addIncoming(z, elseB);
        return phi;
      }
      case Op::And:
      case Op::Or: {
        // Short-circuit: later operands run only when needed.
        bool isAnd = e.op == Op::And;
        auto* join = llvm::BasicBlock::Create(ctx_, isAnd ? "and.end" : "or.end", fn_);
        std::vector<std::pair<llvm::Value*, llvm::BasicBlock*>> incoming;
        for (size_t k = 0; k < e.kids.size(); ++k) {
          llvm::Value* c = truth(v(k));
          if (k + 1 == e.kids.size()) {
            incoming.push_back({boolean(c), b_.GetInsertBlock()});
            b_.CreateBr(join);
            break;
          }
          auto* next = llvm::BasicBlock::Create(ctx_, "next", fn_);
          incoming.push_back({constant(isAnd ? 0 : 1), b_.GetInsertBlock()});
          if (isAnd)
            b_.CreateCondBr(c, next, join);
          else
            b_.CreateCondBr(c, join, next);
          b_.SetInsertPoint(next);
        }
        b_.SetInsertPoint(join);
        llvm::PHINode* phi = b_.CreatePHI(i64_, static_cast<unsigned>(incoming.size()));
        for (auto& [val, block] : incoming) phi->addIncoming(val, block);
        return phi;
      }
      case Op::Call: {
        llvm::Function* callee = function(static_cast<uint32_t>(e.i));
        std::vector<llvm::Value*> args;
        for (const Expr& k : e.kids) {
          if (k.type == sema::Type::Coord) unsupported(k, "lists are evaluated at compile time only");
          args.push_back(value(k));
        }
        return b_.CreateCall(callee, args);
      }
      case Op::ToNode:
      case Op::ToInt: return v(0);
      case Op::Add:
      case Op::Sub:
      case Op::Mul: {
        const llvm::Intrinsic::ID op = e.op == Op::Add   ? llvm::Intrinsic::sadd_with_overflow
                                       : e.op == Op::Sub ? llvm::Intrinsic::ssub_with_overflow
                                                         : llvm::Intrinsic::smul_with_overflow;
        llvm::Value* acc = v(0);
        for (size_t k = 1; k < e.kids.size(); ++k) acc = checked(op, acc, v(k), e);
        return acc;
      }
      case Op::Neg: return checked(llvm::Intrinsic::ssub_with_overflow, constant(0), v(0), e);
      case Op::Abs: {
        llvm::Value* x = v(0);
        llvm::Value* neg = checked(llvm::Intrinsic::ssub_with_overflow, constant(0), x, e);
        return b_.CreateSelect(b_.CreateICmpSLT(x, constant(0)), neg, x);
      }
      case Op::Min:
      case Op::Max: {
        llvm::Value* acc = v(0);
        for (size_t k = 1; k < e.kids.size(); ++k) {
          llvm::Value* x = v(k);
          llvm::Value* pick = e.op == Op::Min ? b_.CreateICmpSLT(x, acc) : b_.CreateICmpSGT(x, acc);
          acc = b_.CreateSelect(pick, x, acc);
        }
        return acc;
      }
      case Op::IntDiv:
      case Op::Mod: {
        llvm::Value* a = v(0);
        llvm::Value* n = v(1);
        llvm::Value* zero = b_.CreateICmpEQ(n, constant(0));
        llvm::Value* over = b_.CreateAnd(b_.CreateICmpEQ(a, constant(INT64_MIN)),
                                         b_.CreateICmpEQ(n, constant(-1)));
        failIf(zero, e, e.op == Op::Mod ? "mod by zero" : "division by zero");
        failIf(over, e, "integer overflow");
        n = b_.CreateSelect(b_.CreateOr(zero, over), constant(1), n);
        return e.op == Op::Mod ? floorMod(a, n) : floorDiv(a, n);
      }
      case Op::Lt: { auto [a, c] = two(); return boolean(b_.CreateICmpSLT(a, c)); }
      case Op::Le: { auto [a, c] = two(); return boolean(b_.CreateICmpSLE(a, c)); }
      case Op::Gt: { auto [a, c] = two(); return boolean(b_.CreateICmpSGT(a, c)); }
      case Op::Ge: { auto [a, c] = two(); return boolean(b_.CreateICmpSGE(a, c)); }
      case Op::Eq: { auto [a, c] = two(); return boolean(b_.CreateICmpEQ(a, c)); }
      case Op::Ne: { auto [a, c] = two(); return boolean(b_.CreateICmpNE(a, c)); }
      case Op::Not: return boolean(b_.CreateICmpEQ(v(0), constant(0)));
      case Op::BitAnd: { auto [a, c] = two(); return b_.CreateAnd(a, c); }
      case Op::BitOr: { auto [a, c] = two(); return b_.CreateOr(a, c); }
      case Op::BitXor: { auto [a, c] = two(); return b_.CreateXor(a, c); }
      case Op::BitNot: return b_.CreateNot(v(0));
      case Op::Shl:
      case Op::Shr: {
        auto [a, c] = two();
        failIf(b_.CreateICmpUGT(c, constant(63)), e, "a shift outside 0 to 63");
        c = b_.CreateAnd(c, constant(63));
        return e.op == Op::Shl ? b_.CreateShl(a, c) : b_.CreateLShr(a, c);
      }
      case Op::Bit: {
        auto [a, c] = two();
        failIf(b_.CreateICmpUGT(c, constant(63)), e, "a bit index outside 0 to 63");
        return b_.CreateAnd(b_.CreateAShr(a, b_.CreateAnd(c, constant(63))), constant(1));
      }
      case Op::Popcount:
        return b_.CreateCall(llvm::Intrinsic::getDeclaration(&m_, llvm::Intrinsic::ctpop, {i64_}),
                             {v(0)});
      case Op::LowestSetBit: {
        llvm::Value* x = v(0);
        failIf(b_.CreateICmpEQ(x, constant(0)), e, "lowest-set-bit of 0: no bit is set");
        return b_.CreateCall(llvm::Intrinsic::getDeclaration(&m_, llvm::Intrinsic::cttz, {i64_}),
                             {x, b_.getFalse()});
      }
      case Op::Sum: {
        // acc = 0; for (i = from; i <= to; ++i) acc += body
        llvm::Value* from = v(0);
        llvm::Value* to = v(1);
        // In the entry block: an alloca here would take stack on every run of an enclosing loop.
        llvm::AllocaInst* acc = nullptr;
        {
          llvm::IRBuilder<> eb(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
          acc = eb.CreateAlloca(i64_, nullptr, "sum");
        }
        llvm::AllocaInst* var = slot(static_cast<uint32_t>(e.i), sema::Type::Int);
        b_.CreateStore(constant(0), acc);
        b_.CreateStore(from, var);
        auto* head = llvm::BasicBlock::Create(ctx_, "sum.head", fn_);
        auto* loop = llvm::BasicBlock::Create(ctx_, "sum.body", fn_);
        auto* done = llvm::BasicBlock::Create(ctx_, "sum.end", fn_);
        b_.CreateBr(head);
        b_.SetInsertPoint(head);
        // Each iteration is a step of the call's budget, as in the evaluator; after a failure
        // (the budget, an overflow of the sum or of the index) the loop stops.
        b_.CreateCondBr(b_.CreateAnd(b_.CreateICmpSLE(b_.CreateLoad(i64_, var), to),
                                     b_.CreateNot(failed(b_, m_))),
                        loop, done);
        b_.SetInsertPoint(loop);
        failIf(countStep(b_, m_, elab::kMaxSimulatorSteps), e,
               fmt::format("evaluation takes more than {} steps (iterations of sum, calls of "
                           "recursive functions); is a loop bound wrong?",
                           elab::kMaxSimulatorSteps));
        llvm::Value* sum = b_.CreateLoad(i64_, acc);
        b_.CreateStore(checked(llvm::Intrinsic::sadd_with_overflow, sum, value(e.kids[2]), e), acc);
        llvm::Value* i = b_.CreateLoad(i64_, var);
        b_.CreateStore(checked(llvm::Intrinsic::sadd_with_overflow, i, constant(1), e), var);
        b_.CreateBr(head);
        b_.SetInsertPoint(done);
        return b_.CreateLoad(i64_, acc);
      }
      case Op::NodeCount: return networkValue(nodes_);
      case Op::DimCount: return networkValue(dims_);
      case Op::PortDims: return constant(static_cast<int64_t>(net_.dimUsed.size()));
      case Op::Radix: {
        llvm::Value* d = v(0);
        checkDim(d, e);
        return lookup(radices_, net_.radices, d);
      }
      // The dimension first, as the evaluator takes it: the first failure is the same.
      case Op::CoordOf: {
        llvm::Value* d = v(1);
        checkDim(d, e);
        return coordOf(v(0), d);
      }
      case Op::Neighbor: {
        llvm::Value* d = v(1);
        checkDim(d, e);
        llvm::Value* n = v(0);
        llvm::Value* delta = v(2);
        llvm::Value* c = coordOf(n, d);
        llvm::Value* moved = wrapCoord(b_.CreateAdd(c, delta), d);
        llvm::Value* stride = lookup(strides_, net_.strides, d);
        return b_.CreateAdd(n, b_.CreateMul(b_.CreateSub(moved, c), stride));
      }
      case Op::Wraps: return lookup(wraps_, net_.wraps, v(0));
      case Op::HasDim: return lookup(dimUsed_, net_.dimUsed, v(0));
      case Op::HasPort: {
        // Answered by the simulator's port table (generated_entry.cpp).
        llvm::FunctionCallee f = m_.getOrInsertFunction(
            "ndl_has_port", llvm::FunctionType::get(i64_, {i64_, i64_, i64_}, false));
        return b_.CreateCall(f, {v(0), v(1), v(2)});
      }
      case Op::Peer: {
        // Answered by the simulator's port table (generated_entry.cpp).
        llvm::FunctionCallee f = m_.getOrInsertFunction(
            "ndl_peer", llvm::FunctionType::get(i64_, {i64_, i64_}, false));
        auto [n, port] = two();
        checkNode(n, e);
        return b_.CreateCall(f, {n, port});
      }
      case Op::Distance: {
        if (net_.nodes > static_cast<int64_t>(elab::DistanceTable::kMaxNodes))
          unsupported(e,
                      fmt::format("(graph-distance a b) keeps the distance of every pair of nodes: "
                                  "at most {} nodes, this network has {}",
                                  elab::DistanceTable::kMaxNodes, net_.nodes),
                      "on a network this large use a routing that computes its ports from "
                      "coordinates (DimensionOrder, MinimalAdaptive, ...)");
        // A table the simulator builds from its port table on first use.
        llvm::FunctionCallee f = m_.getOrInsertFunction(
            "ndl_distance", llvm::FunctionType::get(i64_, {i64_, i64_}, false));
        auto [a, c] = two();
        checkNode(a, e);
        checkNode(c, e);
        return b_.CreateCall(f, {a, c});
      }
      case Op::MakePort: {
        llvm::Value* d = v(0);
        llvm::Value* dir = v(1);
        failIf(b_.CreateOr(b_.CreateICmpUGT(d, constant(0xFFFF)),
                           b_.CreateAnd(b_.CreateICmpNE(dir, constant(1)),
                                        b_.CreateICmpNE(dir, constant(-1)))),
               e, "(port d dir) is not a port: the dimension is 0 or more and the direction +1 "
                  "or -1");
        return b_.CreateAdd(b_.CreateMul(d, constant(2)),
                            boolean(b_.CreateICmpSGT(dir, constant(0))));
      }
      case Op::Vcs: return constant(net_.vcs);
      case Op::InjectionVcs: return constant(net_.injectionVcs);
      case Op::Avoiding: return constant(net_.avoiding);
      case Op::RecoveryTimeout: return constant(net_.recoveryTimeout);
      case Op::RouteNone: return llvm::Constant::getNullValue(route_);
      case Op::RouteTo: return routeTo(e);
      case Op::RouteUnion: {
        llvm::Value* acc = v(0);
        for (size_t k = 1; k < e.kids.size(); ++k) {
          llvm::Value* x = v(k);
          llvm::Value* out = mergeWrites(acc, x, x);
          for (unsigned t = 0; t < 4; ++t)
            out = b_.CreateInsertValue(
                out, b_.CreateOr(b_.CreateExtractValue(acc, t), b_.CreateExtractValue(x, t)), t);
          for (unsigned f = 0; f < net_.header.size(); ++f)
            for (unsigned t = 0; t < 4; ++t)
              out = b_.CreateInsertValue(out,
                                         b_.CreateOr(b_.CreateExtractValue(acc, routeFieldMask(f, t)),
                                                     b_.CreateExtractValue(x, routeFieldMask(f, t))),
                                         routeFieldMask(f, t));
          acc = out;
        }
        return acc;
      }
      case Op::RouteSet: return setField(e);
      case Op::RandomNode: return randomBelow(nodes(), e);
      case Op::RandomEndpoint: return randomBelow(endpoints(), e);
      case Op::EndpointCount: return endpoints();
      case Op::ToEndpoint: return v(0);
      case Op::EndpointRouter: case Op::EndpointIndex: {
        llvm::Value* x = v(0);
        checkEndpoint(x, e);
        // A failed check has been recorded; the query gets a number the layout has.
        x = b_.CreateSelect(b_.CreateICmpUGE(x, endpoints()), constant(0), x);
        llvm::Value* r = endpointRouter(x);
        return e.op == Op::EndpointRouter ? r : b_.CreateSub(x, firstEndpoint(r));
      }
      case Op::RouterEndpoints: case Op::RouterEndpoint: {
        llvm::Value* r = v(0);
        checkNode(r, e);
        r = b_.CreateSelect(b_.CreateICmpUGE(r, nodes()), constant(0), r);
        llvm::Value* at = routerEndpoints(r);
        if (e.op == Op::RouterEndpoints) return at;
        llvm::Value* i = v(1);
        failIf(b_.CreateICmpUGE(i, at), e, "an endpoint the router does not have");
        return b_.CreateAdd(firstEndpoint(r), i);
      }
      case Op::RandomBelow: return randomBelow(v(0), e);
      case Op::RoutePrefer: {
        llvm::Value* acc = v(0);
        for (size_t k = 1; k < e.kids.size(); ++k) acc = prefer(acc, v(k), e);
        return acc;
      }
      case Op::PortQueue:
      case Op::PortCreditsAt:
      case Op::PortFreeVcsAt: {
        // Answered by the router the call runs at (generated_entry.cpp): -1 for a port it
        // lacks, refused as the evaluator refuses it.
        llvm::FunctionCallee f = m_.getOrInsertFunction(
            "ndl_port_load", llvm::FunctionType::get(i64_, {i64_, i64_}, false));
        const int64_t what = e.op == Op::PortQueue ? 0 : e.op == Op::PortCreditsAt ? 1 : 2;
        llvm::Value* r = b_.CreateCall(f, {v(0), constant(what)});
        failIf(b_.CreateICmpSLT(r, constant(0)), e,
               "a congestion read of a port the node does not have");
        return r;
      }
      case Op::PortQueueAt: {
        // The snapshot of the clock's start (generated_entry.cpp): -1 for a router or port
        // that does not exist, refused as the evaluator refuses it.
        llvm::FunctionCallee f = m_.getOrInsertFunction(
            "ndl_port_queue_at", llvm::FunctionType::get(i64_, {i64_, i64_}, false));
        llvm::Value* r = b_.CreateCall(f, {v(0), v(1)});
        failIf(b_.CreateICmpSLT(r, constant(0)), e,
               "a congestion read of a router or port that does not exist");
        return r;
      }
      case Op::RingLength:
      case Op::RingRef:
      case Op::RingCount:
      case Op::RingPush: return ring(e);
      case Op::PortDim: return b_.CreateAShr(v(0), constant(1));
      case Op::PortDir:
        return b_.CreateSelect(truth(b_.CreateAnd(v(0), constant(1))), constant(1), constant(-1));
      default:
        unsupported(e, "this construct runs while the network is elaborated; routing functions "
                       "compile integers, booleans, nodes and ports");
    }
  }

  // Predictor state lives in the simulator (generated_entry.cpp): ring k of the port whose
  // predictor runs now, k counting the program's define-port-state forms in order, or of its
  // router (ndl_router_ring_*), k counting the define-router-state forms.
  llvm::Value* ring(const Expr& e) {
    const sema::Definition& st = defs_.defs[static_cast<size_t>(e.i)];
    int64_t k = 0;
    for (uint32_t i = 0; i < e.i; ++i)
      k += defs_.defs[i].kind == sema::DefKind::PortState && defs_.defs[i].perRouter == st.perRouter;
    auto call = [&](std::string_view op, std::vector<llvm::Value*> args) {
      const std::string name = fmt::format("ndl_{}ring_{}", st.perRouter ? "router_" : "", op);
      std::vector<llvm::Type*> types(args.size(), i64_);
      llvm::FunctionCallee f = m_.getOrInsertFunction(
          name, llvm::FunctionType::get(e.op == Op::RingPush ? llvm::Type::getVoidTy(ctx_) : i64_,
                                        types, false));
      return b_.CreateCall(f, args);
    };
    switch (e.op) {
      case Op::RingLength: return call("length", {constant(k)});
      case Op::RingCount: return call("count", {constant(k), value(e.kids[0])});
      case Op::RingRef: {
        llvm::Value* i = value(e.kids[0]);
        llvm::Value* n = call("length", {constant(k)});
        failIf(b_.CreateOr(b_.CreateICmpSLT(i, constant(0)), b_.CreateICmpSGE(i, n)), e,
               fmt::format("(ring-ref {} k) reads past the entries the ring holds: k is 0 (the "
                           "newest) to (ring-length {}) - 1",
                           st.name, st.name));
        // A safe index after a failure: the run stops at the end of the call.
        llvm::Value* safe = b_.CreateSelect(b_.CreateICmpULT(i, n), i, constant(0));
        return call("ref", {constant(k), safe});
      }
      default: {
        llvm::Value* x = value(e.kids[0]);
        const int64_t lo = st.symbolType == sema::Type::Port ? sema::kEjectionPortCode : st.symbolLo;
        const int64_t hi = st.symbolType == sema::Type::Port
                               ? static_cast<int64_t>(net_.dimUsed.size()) * 2 - 1
                               : st.symbolHi;
        failIf(b_.CreateOr(b_.CreateICmpSLT(x, constant(lo)), b_.CreateICmpSGT(x, constant(hi))),
               e,
               st.symbolType == sema::Type::Port
                   ? fmt::format("(push {} x) takes a port of the network or (ejection-port)",
                                 st.name)
                   : fmt::format("(push {} x) takes a value from {} to {}", st.name, lo, hi));
        call("push", {constant(k), x});
        return constant(0);
      }
    }
  }

  llvm::Module& m_;
  llvm::LLVMContext& ctx_;
  llvm::IRBuilder<> b_;
  const sema::DefinitionTable& defs_;
  const NetworkConstants& net_;
  const SourceManager& sources_;  // to name the place of a failure
  std::map<std::string, llvm::Constant*> messages_;  // failIf's texts, one global each
  llvm::Type* i64_;
  llvm::Type* route_;
  llvm::GlobalVariable* radices_;
  llvm::GlobalVariable* strides_;
  llvm::GlobalVariable* wraps_;
  llvm::GlobalVariable* dimUsed_;
  llvm::Value* nodes_;  // constants, or (asData) variables
  llvm::Value* endpoints_;
  llvm::Value* dims_;
  bool pow2_ = false;  // every radix a power of two (never asData)
  std::vector<int64_t> strideShifts_;
  std::vector<int64_t> radixMasks_;
  llvm::GlobalVariable* strideShiftTable_ = nullptr;
  llvm::GlobalVariable* radixMaskTable_ = nullptr;
  std::map<uint32_t, llvm::Function*> functions_;
  std::vector<uint32_t> pending_;
  std::vector<llvm::AllocaInst*> slots_;
  std::vector<llvm::AllocaInst*> routeSlots_;
  llvm::Function* fn_ = nullptr;
  llvm::GlobalVariable* rng_ = nullptr;  // the packet's draws, seeded by the header init
};

}  // namespace

llvm::Function* lowerDefinition(llvm::Module& module, const sema::DefinitionTable& defs,
                                uint32_t def, const NetworkConstants& network,
                                DiagnosticEngine& diags) {
  Lowerer lowerer(module, defs, network, diags.sources());
  try {
    llvm::Function* f = lowerer.function(def);
    lowerer.lowerPending();
    return f;
  } catch (const NotCompilable& e) {
    diags.report(DiagKind::NotCompilable, e.range,
                 fmt::format("the simulator cannot compile this: {}", e.what))
        .withHint(e.hint.empty()
                      ? "write the routing with integer arithmetic on nodes, coordinates and ports"
                      : e.hint);
    return nullptr;
  }
}

bool lowerOnForward(llvm::Module& module, const sema::DefinitionTable& defs, uint32_t def,
                    const NetworkConstants& network, DiagnosticEngine& diags) {
  Lowerer lowerer(module, defs, network, diags.sources());
  try {
    lowerer.onForward(def);
    lowerer.lowerPending();
    return true;
  } catch (const NotCompilable& e) {
    diags.report(DiagKind::NotCompilable, e.range,
                 fmt::format("the simulator cannot compile this: {}", e.what))
        .withHint("write the update with integer arithmetic on ports and the port state");
    return false;
  }
}

llvm::Function* lowerPattern(llvm::Module& module, const sema::DefinitionTable& defs,
                             uint32_t def, const NetworkConstants& network,
                             DiagnosticEngine& diags) {
  Lowerer lowerer(module, defs, network, diags.sources());
  try {
    llvm::Function* f = lowerer.pattern(def);
    lowerer.lowerPending();
    return f;
  } catch (const NotCompilable& e) {
    diags.report(DiagKind::NotCompilable, e.range,
                 fmt::format("the simulator cannot compile this: {}", e.what))
        .withHint("write the destination with integer arithmetic on nodes and coordinates");
    return nullptr;
  }
}

bool lowerHeaderInit(llvm::Module& module, const sema::DefinitionTable& defs, uint32_t def,
                     const NetworkConstants& network, DiagnosticEngine& diags) {
  Lowerer lowerer(module, defs, network, diags.sources());
  try {
    lowerer.headerInit(def);
    lowerer.lowerPending();
    return true;
  } catch (const NotCompilable& e) {
    diags.report(DiagKind::NotCompilable, e.range,
                 fmt::format("the simulator cannot compile this: {}", e.what))
        .withHint("write the initial value with integer arithmetic on nodes and coordinates");
    return false;
  }
}

}  // namespace ndl::codegen
