import Security
print("stub")
