# every size 1 byte
1 0
1 1
