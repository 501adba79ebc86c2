"""Say which optional module is there."""

import argparse

try:
    import agentnet_absent_module  # noqa: F401
    HAVE = True
except ImportError:
    HAVE = False


def main():
    parser = argparse.ArgumentParser(prog="probe", description="Say which optional module is there.")
    parser.parse_args()
    print("optional module present" if HAVE else "optional module absent")


if __name__ == "__main__":
    main()
