"""A contract type for ``lint-imports`` (docs/architecture.md "Layers"): the pure rule
modules never import ``django.db``.

import-linter's own ``forbidden`` contract cannot name ``django.db`` (it sees an external
package only as a whole, ``django``), and the rules may use ``django.utils.translation``
for labels. This contract reads the import statements themselves: any line of a source
module (or its submodules) that imports from ``django.db`` breaks it.
"""

from importlinter import Contract, ContractCheck, fields, output


class NoDatabaseContract(Contract):
    """``source_modules``: modules (packages include their submodules) that must not import
    ``django.db`` directly. Indirect imports are the ``forbidden`` contracts' job: the rule
    modules are also forbidden from importing the apps' services and models."""

    type_name = "no_database"

    source_modules = fields.ListField(subfield=fields.ModuleField())

    def check(self, graph, verbose):
        """Every ``django``-importing line of the source modules, failing on ``django.db``."""
        offending = []
        for source in self.source_modules:
            modules = {source.name} | set(graph.find_descendants(source.name) or ())
            for module in sorted(modules):
                for details in graph.get_import_details(importer=module, imported="django"):
                    line = details["line_contents"]
                    if "django.db" in line:
                        offending.append((module, details["line_number"], line))
        return ContractCheck(kept=not offending, metadata={"offending": offending})

    def render_broken_contract(self, check):
        """One line per offending import: module, line number, statement."""
        for module, line_number, line in check.metadata["offending"]:
            output.print_error(f"{module}:{line_number}: {line}")
            output.new_line()
