" NDL network descriptions.
autocmd BufNewFile,BufRead *.ndl setfiletype ndl
