"""The yamlkit command line."""

import argparse

from yamlkit import to_json


def main():
    parser = argparse.ArgumentParser(prog="yamlkit", description="Convert a YAML document to JSON.")
    parser.add_argument("content", help="the YAML to convert")
    args = parser.parse_args()
    print(to_json(args.content))


if __name__ == "__main__":
    main()
