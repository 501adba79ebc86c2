"""slugify: turn a title into a URL slug."""
import sys

print("-".join(" ".join(sys.argv[1:]).lower().split()))
