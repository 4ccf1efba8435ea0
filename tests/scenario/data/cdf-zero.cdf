# every size 0: would be 1-byte flows
0 0
0 1
