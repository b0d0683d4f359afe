-- Recursive Fibonacci; main() returns fib(30) = 832040.
local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end

function main()
  return fib(30)
end
