"""slugify: turn a title into a URL slug (ASCII, lower case, single hyphens)."""
import re
import sys
import unicodedata


def slugify(text):
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


if __name__ == "__main__":
    print(slugify(" ".join(sys.argv[1:])))
