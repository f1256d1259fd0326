print("skillbook")
