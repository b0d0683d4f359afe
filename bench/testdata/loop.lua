-- Integer loop: sum of (i*i) mod 7 for i in [0, 1000000); main() returns 1999998.
-- Lua's % is floored like Lisp's mod; gopher-lua numbers are float64, exact here.
function main()
  local s = 0
  for i = 0, 1000000 - 1 do
    s = s + (i * i) % 7
  end
  return s
end
