// The same functions as the benchgrind examples (copied in by scripts/speed.py).
