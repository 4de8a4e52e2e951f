//! What a result file says about the machine it ran on: CPU model, caches, topology,
//! kernel, clock source, governor, virtualization.

use super::{CacheInfo, Topology};
use std::path::Path;

/// Whether we run under a hypervisor, and which one when that can be told.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Virtualization {
    /// True when any source says so (cpuinfo's `hypervisor` flag, `/sys/hypervisor/type`,
    /// a DMI vendor or product name of a known hypervisor).
    pub virtualized: bool,
    /// `KVM`, `QEMU`, `VMware`, `Xen`, `Microsoft Hyper-V`, `Amazon EC2`... when known.
    pub hypervisor: Option<String>,
}

impl Virtualization {
    /// Inspects the live machine: `/proc/cpuinfo`, `/sys`, and on x86 the CPUID hypervisor
    /// vendor leaf when the other sources give no name.
    pub fn detect() -> Virtualization {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").ok();
        let mut v = Virtualization::from_sysfs(Path::new("/sys"), cpuinfo.as_deref());
        if v.virtualized && v.hypervisor.is_none() {
            v.hypervisor = cpuid_hypervisor_vendor().map(|s| hypervisor_from_cpuid(&s));
        }
        v
    }

    /// Decides from a sysfs tree (`hypervisor/type`, `class/dmi/id/{sys_vendor,product_name}`)
    /// and the text of `/proc/cpuinfo` when available. Pure file reading, so fixtures can
    /// exercise it.
    pub fn from_sysfs(sys_root: &Path, cpuinfo: Option<&str>) -> Virtualization {
        let read = |rel: &str| {
            std::fs::read_to_string(sys_root.join(rel))
                .ok()
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
        };
        let flag = cpuinfo.is_some_and(cpuinfo_has_hypervisor_flag);
        let hv_type = read("hypervisor/type");
        let vendor = read("class/dmi/id/sys_vendor").unwrap_or_default();
        let product = read("class/dmi/id/product_name").unwrap_or_default();

        let dmi = dmi_hypervisor(&vendor, &product);
        let from_type = hv_type.as_deref().map(|t| match t {
            "xen" => "Xen".to_string(),
            other => other.to_string(),
        });
        let hypervisor = dmi.or(from_type);
        Virtualization {
            virtualized: flag || hypervisor.is_some(),
            hypervisor,
        }
    }

    /// `bare metal`, `virtualized (KVM)` or `virtualized (unknown hypervisor)`.
    pub fn describe(&self) -> String {
        match (&self.virtualized, &self.hypervisor) {
            (false, _) => "bare metal".to_string(),
            (true, Some(h)) => format!("virtualized ({h})"),
            (true, None) => "virtualized (unknown hypervisor)".to_string(),
        }
    }
}

fn cpuinfo_has_hypervisor_flag(cpuinfo: &str) -> bool {
    cpuinfo
        .lines()
        .filter(|l| l.starts_with("flags"))
        .filter_map(|l| l.split_once(':'))
        .any(|(_, flags)| flags.split_ascii_whitespace().any(|f| f == "hypervisor"))
}

/// Known hypervisors by DMI system vendor / product name.
fn dmi_hypervisor(vendor: &str, product: &str) -> Option<String> {
    let v = vendor.to_ascii_lowercase();
    let p = product.to_ascii_lowercase();
    let name = if p.contains("kvm") || v.contains("kvm") {
        "KVM"
    } else if v.contains("qemu") || p.contains("qemu") {
        "QEMU"
    } else if v.contains("vmware") || p.contains("vmware") {
        "VMware"
    } else if v.contains("xen") || p.contains("hvm domu") {
        "Xen"
    } else if v.contains("microsoft") && p.contains("virtual machine") {
        "Microsoft Hyper-V"
    } else if v.contains("innotek") || p.contains("virtualbox") {
        "VirtualBox"
    } else if v.contains("parallels") || p.contains("parallels") {
        "Parallels"
    } else if v.contains("bochs") || p.contains("bochs") {
        "Bochs"
    } else if v.contains("bhyve") || p.contains("bhyve") {
        "bhyve"
    } else if v.contains("openstack") || p.contains("openstack") {
        "OpenStack"
    } else if v.contains("google") {
        "Google Compute Engine"
    } else if v.contains("amazon ec2") && !p.ends_with(".metal") {
        // EC2 bare-metal instances (`m5.metal`) keep the vendor but run no hypervisor.
        "Amazon EC2"
    } else {
        return None;
    };
    Some(name.to_string())
}

/// A readable name for a CPUID hypervisor vendor signature (leaf 0x4000_0000).
fn hypervisor_from_cpuid(sig: &str) -> String {
    match sig {
        "KVMKVMKVM" => "KVM",
        "Microsoft Hv" => "Microsoft Hyper-V",
        "VMwareVMware" => "VMware",
        "XenVMMXenVMM" => "Xen",
        "TCGTCGTCGTCG" => "QEMU (TCG)",
        "bhyve bhyve" => "bhyve",
        "lrpepyh vr" | "prl hyperv" => "Parallels",
        "ACRNACRNACRN" => "ACRN",
        "VBoxVBoxVBox" => "VirtualBox",
        other => other,
    }
    .to_string()
}

/// The CPUID hypervisor vendor signature, when the CPU says it runs under one.
#[cfg(target_arch = "x86_64")]
fn cpuid_hypervisor_vendor() -> Option<String> {
    use std::arch::x86_64::__cpuid;
    #[allow(unused_unsafe)]
    // SAFETY: CPUID exists on every x86-64 CPU and only reads identification registers;
    // leaf 1 is always valid.
    let leaf1 = unsafe { __cpuid(1) };
    if leaf1.ecx & (1 << 31) == 0 {
        return None; // no hypervisor-present bit
    }
    #[allow(unused_unsafe)]
    // SAFETY: as above; with the hypervisor bit set, leaf 0x4000_0000 is the hypervisor's
    // vendor leaf (on bare metal it would just return junk, which we never reach).
    let hv = unsafe { __cpuid(0x4000_0000) };
    let mut bytes = Vec::with_capacity(12);
    for reg in [hv.ebx, hv.ecx, hv.edx] {
        bytes.extend_from_slice(&reg.to_le_bytes());
    }
    let sig: String = String::from_utf8_lossy(&bytes)
        .trim_matches(|c: char| c == '\0' || c.is_whitespace())
        .to_string();
    (!sig.is_empty()).then_some(sig)
}

#[cfg(not(target_arch = "x86_64"))]
fn cpuid_hypervisor_vendor() -> Option<String> {
    None
}

/// The machine a result was measured on. Plain data; every field is filled even when the
/// files behind it are missing (then `"unknown"`, `None` or empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineInfo {
    /// `model name` from `/proc/cpuinfo`, or `"unknown"`.
    pub cpu_model: String,
    /// Online logical CPUs.
    pub logical_cpus: usize,
    /// The CPUs this process may run on (`sched_getaffinity`), sorted.
    pub allowed_cpus: Vec<usize>,
    /// Distinct data/unified cache configurations ([`Topology::cache_sizes`]).
    pub caches: Vec<CacheInfo>,
    /// [`Topology::summary`], or `"unknown"`.
    pub topology: String,
    /// Kernel release and version (`uname -r` and `uname -v`).
    pub kernel: String,
    /// The host name.
    pub hostname: String,
    /// The kernel's current clock source (`tsc`, `kvm-clock`, `hpet`...).
    pub clocksource: Option<String>,
    /// cpu0's cpufreq scaling governor, when readable (VMs usually have none).
    pub governor: Option<String>,
    /// Hypervisor, if any.
    pub virtualization: Virtualization,
}

impl MachineInfo {
    /// Gathers everything from the live machine. Never fails or panics.
    pub fn detect() -> MachineInfo {
        let topo = Topology::detect().ok();
        let read = |p: &str| {
            std::fs::read_to_string(p)
                .ok()
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
        };
        let cpuinfo = read("/proc/cpuinfo").unwrap_or_default();
        let cpu_model = cpuinfo_field(&cpuinfo, "model name")
            .or_else(|| cpuinfo_field(&cpuinfo, "Model"))
            .or_else(|| cpuinfo_field(&cpuinfo, "cpu model"))
            .unwrap_or_else(|| "unknown".to_string());
        let logical_cpus = match &topo {
            Some(t) => t.logical_cpus(),
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let mut allowed_cpus = allowed_cpus();
        if allowed_cpus.is_empty() {
            allowed_cpus = match &topo {
                Some(t) => t.cpu_ids(),
                None => (0..logical_cpus).collect(),
            };
        }
        let (kernel, hostname) = uname();
        MachineInfo {
            cpu_model,
            logical_cpus,
            allowed_cpus,
            caches: topo.as_ref().map(Topology::cache_sizes).unwrap_or_default(),
            topology: topo
                .as_ref()
                .map_or_else(|| "unknown".to_string(), Topology::summary),
            kernel,
            hostname,
            clocksource: read("/sys/devices/system/clocksource/clocksource0/current_clocksource"),
            governor: read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
            virtualization: Virtualization::detect(),
        }
    }
}

fn cpuinfo_field(cpuinfo: &str, key: &str) -> Option<String> {
    cpuinfo.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        (k.trim() == key && !v.trim().is_empty()).then(|| v.trim().to_string())
    })
}

#[cfg(target_os = "linux")]
fn allowed_cpus() -> Vec<usize> {
    use rustix::thread::{sched_getaffinity, CpuSet};
    match sched_getaffinity(None) {
        Ok(set) => (0..CpuSet::MAX_CPU).filter(|&c| set.is_set(c)).collect(),
        Err(_) => Vec::new(),
    }
}

#[cfg(not(target_os = "linux"))]
fn allowed_cpus() -> Vec<usize> {
    Vec::new()
}

#[cfg(unix)]
fn uname() -> (String, String) {
    let u = rustix::system::uname();
    let s = |c: &std::ffi::CStr| c.to_string_lossy().trim().to_string();
    let kernel = format!("{} {}", s(u.release()), s(u.version()));
    let host = s(u.nodename());
    let or_unknown = |x: String| {
        if x.trim().is_empty() {
            "unknown".to_string()
        } else {
            x
        }
    };
    (or_unknown(kernel), or_unknown(host))
}

#[cfg(not(unix))]
fn uname() -> (String, String) {
    ("unknown".to_string(), "unknown".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpuinfo_parsing() {
        let text = "processor\t: 0\nmodel name\t: AMD EPYC\nflags\t\t: fpu sse2 hypervisor lm\n";
        assert_eq!(
            cpuinfo_field(text, "model name").as_deref(),
            Some("AMD EPYC")
        );
        assert_eq!(cpuinfo_field(text, "Model"), None);
        assert!(cpuinfo_has_hypervisor_flag(text));
        assert!(!cpuinfo_has_hypervisor_flag("flags\t: fpu hypervisorx\n"));
        assert!(!cpuinfo_has_hypervisor_flag(""));
    }

    #[test]
    fn dmi_names() {
        assert_eq!(
            dmi_hypervisor("QEMU", "Standard PC (Q35 + ICH9, 2009)").as_deref(),
            Some("QEMU")
        );
        assert_eq!(dmi_hypervisor("Red Hat", "KVM").as_deref(), Some("KVM"));
        assert_eq!(
            dmi_hypervisor("VMware, Inc.", "VMware7,1").as_deref(),
            Some("VMware")
        );
        assert_eq!(
            dmi_hypervisor("Microsoft Corporation", "Virtual Machine").as_deref(),
            Some("Microsoft Hyper-V")
        );
        assert_eq!(
            dmi_hypervisor("Microsoft Corporation", "Surface Laptop"),
            None
        );
        assert_eq!(
            dmi_hypervisor("Amazon EC2", "m5.large").as_deref(),
            Some("Amazon EC2")
        );
        assert_eq!(dmi_hypervisor("Amazon EC2", "m5.metal"), None);
        assert_eq!(dmi_hypervisor("Dell Inc.", "PowerEdge R740"), None);
        assert_eq!(hypervisor_from_cpuid("KVMKVMKVM"), "KVM");
        assert_eq!(hypervisor_from_cpuid("SomethingNew"), "SomethingNew");
    }
}
