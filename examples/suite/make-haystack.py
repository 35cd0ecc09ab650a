"""Writes benchmarks/haystacks/sherlock.txt, a stand-in for the guide's Project Gutenberg text
(this repository is built without network access). Deterministic: the same bytes every run."""

import random

rng = random.Random(1661)
names = ["Sherlock Holmes", "Dr. Watson", "Mrs. Hudson", "Inspector Lestrade", "the client", "Mycroft"]
verbs = ["looked at", "wrote to", "waited for", "followed", "questioned", "warned", "met"]
places = ["in Baker Street", "by the river", "at the station", "near the old mill", "in the fog", "at dawn"]
tails = ["and said nothing.", "with a thin smile.", "before the clock struck.", "as the lamp went out.", "without a word."]
lines = []
for chapter in range(1, 13):
    lines.append(f"CHAPTER {chapter}\n\n")
    for _ in range(260):
        who, whom = rng.sample(names, 2)
        lines.append(f"{who} {rng.choice(verbs)} {whom} {rng.choice(places)} {rng.choice(tails)}\n")
    lines.append("\n")
text = "".join(lines)
with open("benchmarks/haystacks/sherlock.txt", "w") as f:
    f.write(text)
data = text.encode()
print(len(data), "bytes;", data.count(b"Sherlock Holmes"), "x 'Sherlock Holmes';", end=" ")
n, at = 0, 0
while (i := data.find(b"he", at)) >= 0:
    n, at = n + 1, i + 2
print(n, "x 'he'")
