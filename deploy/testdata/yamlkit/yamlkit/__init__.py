"""Convert YAML documents to JSON."""

import json

import yaml


def to_json(document):
    """Parse a YAML document with libyaml's safe loader and return it as JSON."""
    return json.dumps(yaml.load(document, Loader=yaml.CSafeLoader), sort_keys=True)
