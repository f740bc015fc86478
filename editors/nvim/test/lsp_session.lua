-- A scripted Neovim session against `ndlc lsp` (run by editors/nvim/test/run.sh):
-- Neovim's own LSP client, started as docs/editors.md's snippet starts it, on a program with a
-- misspelled form. Checks that the diagnostic appears at the range `ndlc check` names, that
-- hover shows a form's documentation (the program does not check, so no converted value), and that go to definition on a routing lands on its
-- line in the stdlib. Prints "ok: ..." per check; exits 1 at the first failure.
-- Environment: NDLC, PROGRAM, EXPECT_LINE/EXPECT_COL (1-based, from ndlc check),
-- FORM_DOC (NetworkFrequency's line in ndlc check --list-forms), STDLIB_FILE and STDLIB_LINE
-- (where the routing is defined).
local function fail(msg)
  io.stdout:write("FAIL: " .. msg .. "\n")
  vim.cmd("cquit 1")
end
local function ok(cond, msg)
  if not cond then fail(msg) end
  io.stdout:write("ok: " .. msg .. "\n")
end

local env = function(name)
  local v = os.getenv(name)
  if not v or v == "" then fail("set " .. name) end
  return v
end
local ndlc, program = env("NDLC"), env("PROGRAM")
local want_line, want_col = tonumber(env("EXPECT_LINE")), tonumber(env("EXPECT_COL"))
local stdlib_file, stdlib_line = env("STDLIB_FILE"), tonumber(env("STDLIB_LINE"))

-- docs/editors.md's snippet, as a user's init.lua has it (Neovim 0.7: the filetype from
-- editors/vim/ftdetect, on the runtimepath given by run.sh).
vim.api.nvim_create_autocmd("FileType", {
  pattern = "ndl",
  callback = function(args)
    local client = vim.lsp.start_client({
      name = "ndlc", cmd = { ndlc, "lsp", "--stdio" }, root_dir = vim.fn.fnamemodify(program, ":h"),
    })
    if client then vim.lsp.buf_attach_client(args.buf, client) end
  end,
})

vim.cmd("edit " .. vim.fn.fnameescape(program))
local buf = vim.api.nvim_get_current_buf()
ok(vim.bo[buf].filetype == "ndl", "the .ndl file has filetype ndl")
ok(vim.wait(20000, function() return #vim.lsp.buf_get_clients(buf) > 0 end, 50),
   "the client attached")

-- Diagnostics: 0-based lnum and col in Neovim, 1-based in ndlc check's file:line:col.
ok(vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50),
   "diagnostics appeared")
local d = vim.diagnostic.get(buf)[1]
ok(d.lnum + 1 == want_line and d.col + 1 == want_col,
   string.format("the diagnostic is at %d:%d, as ndlc check says (%d:%d)", d.lnum + 1,
                 d.col + 1, want_line, want_col))
ok(d.severity == vim.diagnostic.severity.ERROR and d.message:find("unknown form", 1, true),
   "it is the unknown-form error: " .. d.message:gsub("\n.*", ""))
ok(d.end_col - d.col == #"FlowControlMethd", "its range covers the misspelled name")

-- Position of a word in the buffer (0-based line and character).
local function find(word)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local s = line:find(word, 1, true)
    if s then return { line = i - 1, character = s - 1 + 1 } end
  end
  fail("no " .. word .. " in the program")
end
local function request(method, word)
  local params = { textDocument = vim.lsp.util.make_text_document_params(buf), position = find(word) }
  local answers = vim.lsp.buf_request_sync(buf, method, params, 20000)
  ok(answers ~= nil, method .. " answered")
  for _, a in pairs(answers) do
    if a.error then fail(method .. ": " .. vim.inspect(a.error)) end
    return a.result
  end
end

local hover = request("textDocument/hover", "NetworkFrequency")
local text = type(hover.contents) == "table" and (hover.contents.value or "") or tostring(hover.contents)
-- The form's one-line documentation, as `ndlc check --list-forms` gives it (run.sh).
ok(text:find("NetworkFrequency", 1, true) and text:find(env("FORM_DOC"), 1, true),
   "hover on NetworkFrequency shows its documentation: " .. text:gsub("\n", " | "))

local def = request("textDocument/definition", "DimensionOrder")
local loc = def[1] or def
local path = vim.uri_to_fname(loc.uri or loc.targetUri)
local range = loc.range or loc.targetSelectionRange
ok(vim.loop.fs_realpath(path) == vim.loop.fs_realpath(stdlib_file),
   "go to definition of DimensionOrder lands in " .. stdlib_file)
ok(range.start.line + 1 == stdlib_line,
   string.format("on line %d, where the stdlib defines it (%d)", range.start.line + 1, stdlib_line))

vim.lsp.stop_client(vim.lsp.get_active_clients())
vim.cmd("qall!")
