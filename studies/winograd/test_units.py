"""python3 -m unittest test_units  (no gmpy2 needed): every unit exact against the naive
transform, graph counts equal to the closed forms and to the counts of the generated code,
and the checks able to fail."""

import random
import unittest

import butterfly as B
import units as U


class Units(unittest.TestCase):
    def test_exact_and_counts(self):
        rnd = random.Random(7)
        for q in U.MODULI:
            for n in U.SIZES:
                for unit in U.UNITS:
                    g = U.build(unit, q, n)
                    cf = U.closed_form(unit, n)
                    c = g.count()
                    self.assertEqual((c["mul"], c["add"] + c["sub"]), (cf["mul"], cf["addsub"]))
                    for mode in ("eager", "lazy"):
                        f = B.compile_unit(g, mode, int)
                        for _ in range(50):
                            x = [rnd.randrange(q) for _ in range(n)]
                            self.assertEqual(f(x), U.reference(g, x), (unit, q, n, mode))
                        made = lambda cv, g=g, mode=mode: B.compile_unit(g, mode, cv)
                        self.assertEqual(B.count_runtime(made, q, n), B.static_count(g, mode))
                f = B.r2_loop(q, n, int)
                w = U.primitive_root_of_unity(q, n)
                x = [rnd.randrange(q) for _ in range(n)]
                self.assertEqual(f(x), U.naive_cyclic(x, w, q))

    def test_check_can_fail(self):
        q, n = 12289, 8
        g = U.build("winograd", q, n)
        # corrupt one constant: the unit must no longer match the reference
        i = next(i for i, k in enumerate(g.kind) if k == "mul")
        g.const[i] = (g.const[i] + 1) % q
        x = [random.randrange(1, q) for _ in range(n)]
        self.assertNotEqual(g.evaluate(x), U.reference(g, x))

    def test_depths(self):
        g = U.build("winograd", 8380417, 16)
        d = g.depths()
        self.assertEqual((d["adder_depth"], d["mul_depth"]), (6, 1))
        g = U.build("r2-full", 8380417, 16)
        d = g.depths()
        self.assertEqual((d["adder_depth"], d["mul_depth"]), (4, 4))


if __name__ == "__main__":
    unittest.main()
