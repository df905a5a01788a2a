print("podcast-testserver: not yet")
