#!/usr/bin/env python3
"""What the release scripts read from `cargo metadata --no-deps` (on stdin), with the
Python every machine of the project has, so the scripts need no jq.

  workspace.py target-dir           the target directory
  workspace.py published            each published member as "name version"
  workspace.py features CRATE       CRATE's features but `default`, one a line
"""
import json
import sys


def published(metadata):
    # Published members: `publish` is null (anywhere) or a non-empty list of registries.
    members = set(metadata["workspace_members"])
    for package in metadata["packages"]:
        if package["id"] in members and package.get("publish") != []:
            yield f'{package["name"]} {package["version"]}'


def main():
    metadata = json.load(sys.stdin)
    command = sys.argv[1]
    if command == "target-dir":
        lines = [metadata["target_directory"]]
    elif command == "published":
        lines = list(published(metadata))
    elif command == "features":
        (package,) = [p for p in metadata["packages"] if p["name"] == sys.argv[2]]
        lines = sorted(f for f in package["features"] if f != "default")
    else:
        sys.exit(f"unknown command {command}")
    print("\n".join(lines))


main()
