"""slugify: turn a title into a URL slug."""
import sys

print(" ".join(sys.argv[1:]).lower().replace(" ", "-"))
