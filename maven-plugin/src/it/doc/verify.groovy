// The site is where the goal says, with the same pages as prmkit doc: index, one page per
// structure and enum, back-links from the embedded structure to the one embedding it.
def log = new File(basedir, 'build.log').text
def site = new File(basedir, 'target/prm-doc')
def index = new File(site, 'index.html').text
assert index.contains('<title>acme registers</title>')
assert index.contains('href="structs/acme.ring_ctx.html"') && index.contains('href="enums/acme.ring_state.html"')
def ctx = new File(site, 'structs/acme.ring_ctx.html').text
assert ctx.contains('data-field="state" data-hi="31" data-lo="30"')
assert ctx.contains('href="../structs/acme.create_ring_in.html#f-ctx"') : 'back-link to create_ring_in'
assert new File(site, 'enums/acme.ring_state.html').text.contains('A descriptor was malformed; reset the ring')
assert new File(site, 'search.js').isFile() && new File(site, 'style.css').isFile()
assert log.contains('Wrote the PRM reference of 2 structures (6 files) to target/prm-doc')
return true
