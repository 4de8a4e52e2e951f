//! Reading the sysfs files [`super::Topology::from_sysfs`] uses: the online CPU list, NUMA
//! nodes, each CPU's topology and caches. A missing file makes a property unknown, never an
//! error (except the CPU list).

use super::{parse_cpu_list, sizes, Cache, CacheKind, Cpu};
use crate::{Error, Result};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::str::FromStr;

pub(super) fn read_trimmed(path: &Path) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
}

pub(super) fn read_num<T: FromStr>(path: &Path) -> Option<T> {
    read_trimmed(path)?.parse().ok()
}

/// The online CPU list: `cpu/online`, else every `cpuN` directory whose `online` file is
/// not `0` (cpu0 often has no such file).
pub(super) fn online_cpus(cpu_dir: &Path) -> Result<Vec<usize>> {
    let online_path = cpu_dir.join("online");
    if let Some(text) = read_trimmed(&online_path) {
        let cpus = parse_cpu_list(&text).map_err(|e| {
            Error::io(
                format!("parsing {}", online_path.display()),
                io::Error::new(io::ErrorKind::InvalidData, e.to_string()),
            )
        })?;
        if !cpus.is_empty() {
            return Ok(cpus);
        }
    }
    let no_cpus = || {
        Error::io(
            format!("finding CPUs under {}", cpu_dir.display()),
            io::Error::new(
                io::ErrorKind::NotFound,
                "no online list and no cpuN directories: is sysfs mounted?",
            ),
        )
    };
    let entries = std::fs::read_dir(cpu_dir).map_err(|_| no_cpus())?;
    let mut cpus: Vec<usize> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let id: usize = name.strip_prefix("cpu")?.parse().ok()?;
            let online = read_trimmed(&e.path().join("online"));
            (online.as_deref() != Some("0")).then_some(id)
        })
        .collect();
    cpus.sort_unstable();
    if cpus.is_empty() {
        return Err(no_cpus());
    }
    Ok(cpus)
}

/// CPU id -> NUMA node, from `node/nodeN/cpulist`; empty when there is no node directory.
pub(super) fn numa_nodes(root: &Path) -> BTreeMap<usize, usize> {
    let mut map = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(root.join("devices/system/node")) else {
        return map;
    };
    for e in entries.filter_map(|e| e.ok()) {
        let Some(node) = e
            .file_name()
            .to_str()
            .and_then(|n| n.strip_prefix("node"))
            .and_then(|n| n.parse::<usize>().ok())
        else {
            continue;
        };
        if let Some(list) = read_trimmed(&e.path().join("cpulist")) {
            for cpu in parse_cpu_list(&list).unwrap_or_default() {
                map.insert(cpu, node);
            }
        }
    }
    map
}

pub(super) fn read_cpu(dir: &Path, id: usize, node_of: &BTreeMap<usize, usize>) -> Cpu {
    let topo = dir.join("topology");
    let list = |name: &str| -> Option<Vec<usize>> {
        parse_cpu_list(&read_trimmed(&topo.join(name))?).ok()
    };
    let siblings = list("thread_siblings_list")
        .or_else(|| list("core_cpus_list"))
        .unwrap_or_default();
    let package_id =
        read_num::<i64>(&topo.join("physical_package_id")).and_then(|v| u32::try_from(v).ok());
    let core_id = read_num::<i64>(&topo.join("core_id")).and_then(|v| u32::try_from(v).ok());
    Cpu {
        id,
        core_id,
        package_id,
        siblings,
        node: node_of.get(&id).copied().unwrap_or(0),
        caches: read_caches(&dir.join("cache")),
    }
}

pub(super) fn read_caches(dir: &Path) -> Vec<Cache> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut indexed: Vec<(usize, PathBuf)> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let k = e
                .file_name()
                .to_str()?
                .strip_prefix("index")?
                .parse()
                .ok()?;
            Some((k, e.path()))
        })
        .collect();
    indexed.sort();
    indexed
        .into_iter()
        .filter_map(|(_, p)| {
            Some(Cache {
                level: read_num(&p.join("level"))?,
                kind: CacheKind::parse(&read_trimmed(&p.join("type"))?)?,
                size_bytes: read_trimmed(&p.join("size")).and_then(|s| sizes::parse_size(&s)),
                shared_cpus: read_trimmed(&p.join("shared_cpu_list"))
                    .and_then(|s| parse_cpu_list(&s).ok())
                    .unwrap_or_default(),
                id: read_num(&p.join("id")),
            })
        })
        .collect()
}
