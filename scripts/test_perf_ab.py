"""The pure parts of scripts/perf_ab.py: the bench file of each scenario and the table of
verdict counts (the runs themselves build a project and take minutes: not run here).

    python3 -m unittest discover -s scripts -p 'test_*.py'
"""

import unittest

import perf_ab


class BenchFile(unittest.TestCase):
    def test_each_scenario_sets_its_work_and_order(self):
        # (scenario, PERMILLE, SORTED)
        for scenario, permille, sorted_ in [
            ("aa", "1000", "false"),
            ("+10", "1100", "false"),
            ("+2", "1020", "false"),
            ("sorted", "1000", "true"),
        ]:
            text = perf_ab.bench_file(scenario, 250)
            self.assertIn(f"const PERMILLE: u64 = {permille};", text, scenario)
            self.assertIn(f"const SORTED: bool = {sorted_};", text, scenario)
            self.assertIn("Duration::from_millis(250)", text, scenario)
            self.assertNotIn("@", text.replace("#[", ""), scenario)


class Table(unittest.TestCase):
    def test_counts_verdicts_and_exit_statuses_per_benchmark(self):
        def run(mode, scenario, status, spin, total, ir=0.0):
            return {
                "mode": mode,
                "scenario": scenario,
                "status": status,
                "benches": {
                    "work::spin_body::body": {"verdict": spin, "ir_diff_pct": ir},
                    "branches::sum::data": {"verdict": total, "ir_diff_pct": 0.0},
                },
            }

        results = [
            run("turns", "+10", 3, "slower", "unchanged", 10.0),
            run("turns", "+10", 3, "slower", "inconclusive", 9.5),
            run("sequential", "+10", 0, "inconclusive", "unchanged", -10.0),
        ]
        lines = perf_ab.table(results).splitlines()
        self.assertEqual(len(lines), 2 + 4)
        rows = {tuple(c.strip() for c in l.strip("|").split("|")[:3]): l for l in lines[2:]}
        spin = [c.strip() for c in rows[("turns", "+10", "spin_body")].strip("|").split("|")]
        # runs, faster, slower, unchanged, inconclusive, none, exit 0, exit 3, max |Ir %|
        self.assertEqual(spin[3:], ["2", "0", "2", "0", "0", "0", "0", "2", "10.000"])
        total = [c.strip() for c in rows[("turns", "+10", "sum")].strip("|").split("|")]
        self.assertEqual(total[3:8], ["2", "0", "0", "1", "1"])
        seq = [c.strip() for c in rows[("sequential", "+10", "spin_body")].strip("|").split("|")]
        self.assertEqual(seq[-1], "10.000")
        self.assertEqual(seq[9], "1")


if __name__ == "__main__":
    unittest.main()
