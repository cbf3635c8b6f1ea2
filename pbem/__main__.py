"""`python3 -m pbem ...` runs the command line, for machines where pip's script folder is not
on PATH."""
from pbem.cli import main

main()
