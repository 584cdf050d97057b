from setcls.train import main

main()
