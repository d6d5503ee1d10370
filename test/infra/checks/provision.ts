/**
 * A first provision that cannot race itself (issue 27, item 6): the child resources of the function app (publishing
 * policies, authentication settings, diagnostic setting) each write the site, so they run one after another, each
 * `dependsOn` the one declared before it; and no custom role is assigned in the deployment that defines it (the
 * definition gets a module of its own, finished before the assignment starts).
 */
import { getProperty } from '../bicep';
import { Finding, Infra, rel, resourceBySymbol, roleAssignments } from './model';

export function checkProvision(infra: Infra): Finding[] {
  return [...checkSiteChildrenInSequence(infra), ...checkRoleDefinedBeforeAssigned(infra)];
}

function checkSiteChildrenInSequence(infra: Infra): Finding[] {
  const out: Finding[] = [];
  for (const file of infra.files.values()) {
    for (const site of file.resources.filter(
      (r) => !r.existing && r.typeAndVersion.startsWith('Microsoft.Web/sites@'),
    )) {
      const children = file.resources.filter(
        (r) =>
          getProperty(r.body, 'parent')?.text === site.symbol || getProperty(r.body, 'scope')?.text === site.symbol,
      );
      children.forEach((child, i) => {
        const before = children[i - 1];
        if (!before) return;
        const depends = (getProperty(child.body, 'dependsOn')?.namedChildren ?? []).map((n) => n.text);
        if (!depends.includes(before.symbol))
          out.push({
            check: 'provision',
            file: rel(infra, file.file),
            message: `${child.symbol} writes site ${site.symbol} too: it must dependsOn ${before.symbol}, the child declared before it, so the writes run one at a time`,
          });
      });
    }
  }
  return out;
}

function checkRoleDefinedBeforeAssigned(infra: Infra): Finding[] {
  return roleAssignments(infra)
    .filter((a) => a.customRole && a.customRoleFile === a.file && resourceBySymbol(a.file, a.customRole.symbol))
    .map((a) => ({
      check: 'provision',
      file: rel(infra, a.file.file),
      message: `${a.symbol} assigns custom role ${a.customRole?.symbol} in the deployment that defines it: define it in a module of its own and pass its id in`,
    }));
}
