x=1 y=2
x=2 y=1
x=2 y=2
