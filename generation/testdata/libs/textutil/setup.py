from setuptools import setup

setup(name="textutil", version="1.0", description="Small text utilities: slugs, word counts, wrapping", packages=["textutil"])
