// Replaced by each of the README's Swift samples in turn (CoexistenceTests).
print("no sample")
